/**
 * A fresh database per test file on the run's throwaway cluster
 * (postgres-global-setup.ts), dropped afterwards.
 */
import { inject } from 'vitest';
import pg from 'pg';

export function clusterUrl(): string {
  const url = inject('postgresUrl');
  if (!url) throw new Error('the PostgreSQL test cluster was not started: postgres-global-setup.ts found no test of this run importing test/helpers/postgres.js');
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
  const name = `${prefix}_${process.pid}_${Date.now().toString(36)}_${counter++}`.toLowerCase().replace(/[^a-z0-9_]/g, '_');
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
