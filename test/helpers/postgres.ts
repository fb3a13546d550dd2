/**
 * A fresh database per test file on the run's throwaway cluster
 * (postgres-global-setup.ts), dropped afterwards.
 */
import { inject } from 'vitest';
import pg from 'pg';

/** until the run's cluster, started in the background by the global setup, accepts connections */
async function untilAccepting(url: string, timeoutMs = 30_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.end();
      return;
    } catch (err) {
      await client.end().catch(() => undefined);
      // not listening yet, or listening and still starting up
      const starting = ['ECONNREFUSED', '57P03'].includes((err as { code?: string }).code ?? '');
      if (!starting || performance.now() > deadline)
        throw new Error(
          `the PostgreSQL test cluster does not accept connections: ${(err as Error).message} (if it failed to start, the end of the run says why)`,
          { cause: err },
        );
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

const started = inject('postgresUrl');
if (started) await untilAccepting(started);

export function clusterUrl(): string {
  const url = inject('postgresUrl');
  if (!url)
    throw new Error(
      'the PostgreSQL test cluster was not started: postgres-global-setup.ts found no test of this run importing test/helpers/postgres.js',
    );
  return url;
}

/** a URL for `database` on the test cluster */
export function databaseUrl(database: string): string {
  const url = new URL(clusterUrl());
  url.pathname = `/${database}`;
  return url.toString();
}

let counter = 0;

/** creates an empty database; returns its URL and a drop function */
export async function createDatabase(prefix = 'arena'): Promise<{ url: string; name: string; drop(): Promise<void> }> {
  const name = `${prefix}_${process.pid}_${Date.now().toString(36)}_${counter++}`
    .toLowerCase()
    .replace(/[^a-z0-9_]/g, '_');
  await admin(`CREATE DATABASE ${name}`);
  return {
    url: databaseUrl(name),
    name,
    drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: clusterUrl() });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
