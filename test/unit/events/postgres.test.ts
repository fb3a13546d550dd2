/** PostgreSQL store specifics: global order under out-of-order commits, schema versions, connection errors. */
import { afterEach, describe, expect, it } from 'vitest';
import pg from 'pg';
import { createServer } from 'node:net';
import { PostgresEventStore, type PostgresStoredEvent } from '../../../src/events/postgres.js';
import { SCHEMA_VERSION } from '../../../src/events/postgres-schema.js';
import { ConflictError, RuntimeError, UsageError } from '../../../src/shared/errors.js';
import { clusterUrl, createDatabase, databaseUrl } from '../../helpers/postgres.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function freshStore(): Promise<{ store: PostgresEventStore; url: string }> {
  const db = await createDatabase('pgstore');
  cleanups.push(() => db.drop());
  const store = new PostgresEventStore({ url: db.url, pollIntervalMs: 50 });
  cleanups.push(() => store.close());
  await store.ready();
  return { store, url: db.url };
}

async function rawClient(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  cleanups.push(() => client.end());
  return client;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('PostgresEventStore', () => {
  it('a reader never skips an event whose transaction commits after a later one: it is held back, then delivered first', async () => {
    const { store, url } = await freshStore();
    const seen: PostgresStoredEvent[] = [];
    const ac = new AbortController();
    const reading = (async () => {
      for await (const e of store.subscribe({}, 0, { signal: ac.signal })) seen.push(e as PostgresStoredEvent);
    })();
    // a slow writer takes the lower position and has not committed yet
    const slow = await rawClient(url);
    await slow.query('BEGIN');
    const { rows } = await slow.query(
      "SELECT out_position FROM arena_append('slow', 0, ARRAY['e'], ARRAY['1'], '2026-01-01T00:00:00.000Z')",
    );
    const [fast] = await store.append('fast', [{ type: 'e', data: 2 }], 0);
    expect(fast!.position).toBeGreaterThan(Number(rows[0].out_position));
    await sleep(300);
    // the committed later event is not handed out while an earlier transaction may still commit
    expect(seen).toEqual([]);
    await slow.query('COMMIT');
    await expect.poll(() => seen.map((e) => e.stream_id), { timeout: 5000 }).toEqual(['slow', 'fast']);
    ac.abort();
    await reading;
  });

  it('a transaction left open elsewhere in the cluster, or in this database, holds no reader back', async () => {
    const { store, url } = await freshStore();
    const other = await createDatabase('pgother');
    cleanups.push(() => other.drop());
    // both have a transaction id, so both are in every snapshot's running list until they end
    const elsewhere = await rawClient(other.url);
    await elsewhere.query('BEGIN');
    await elsewhere.query('SELECT pg_current_xact_id()');
    const here = await rawClient(url);
    await here.query('BEGIN');
    await here.query('CREATE TEMP TABLE t (x int)');
    await here.query('SELECT pg_current_xact_id()');
    cleanups.push(() => here.query('ROLLBACK').catch(() => undefined));
    cleanups.push(() => elsewhere.query('ROLLBACK').catch(() => undefined));

    const seen: string[] = [];
    const ac = new AbortController();
    const live = (async () => {
      for await (const e of store.subscribe({}, undefined, { signal: ac.signal })) seen.push(`live ${e.stream_id}`);
    })();
    const replayed = (async () => {
      for await (const e of store.subscribe({}, 0, { signal: ac.signal })) seen.push(`replay ${e.stream_id}`);
    })();
    await sleep(200);
    await store.append('a', [{ type: 'e', data: 1 }], 0);
    // with the two transactions still open
    await expect.poll(() => [...seen].sort(), { timeout: 10_000 }).toEqual(['live a', 'replay a']);
    ac.abort();
    await Promise.all([live, replayed]);
  });

  it('a wrong expected version is the same ConflictError as SQLite, naming the actual version', async () => {
    const { store } = await freshStore();
    await store.append('s', [{ type: 'a', data: 1 }], 0);
    const err = await store.append('s', [{ type: 'b', data: 2 }], 5).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConflictError);
    expect(err).toMatchObject({
      code: 'version_conflict',
      details: { stream_id: 's', expected_version: 5, actual_version: 1 },
    });
    expect(await store.streamVersion('s')).toBe(1);
  });

  it('migrates once and idempotently: a second store on the database sees the same history', async () => {
    const { store, url } = await freshStore();
    await store.append('s', [{ type: 'a', data: { x: 1 } }], 0);
    const again = new PostgresEventStore({ url });
    cleanups.push(() => again.close());
    expect((await again.read('s')).map((e) => e.data)).toEqual([{ x: 1 }]);
    const raw = await rawClient(url);
    expect((await raw.query('SELECT version FROM arena_schema')).rows).toEqual([{ version: SCHEMA_VERSION }]);
  });

  it('refuses a database whose schema is newer than the code, changing nothing', async () => {
    const { store, url } = await freshStore();
    await store.append('s', [{ type: 'a', data: null }], 0);
    const raw = await rawClient(url);
    await raw.query('UPDATE arena_schema SET version = $1', [SCHEMA_VERSION + 1]);
    const newer = new PostgresEventStore({ url });
    cleanups.push(() => newer.close());
    const err = await newer.ready().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RuntimeError);
    expect(String((err as Error).message)).toMatch(
      new RegExp(`schema version ${SCHEMA_VERSION + 1}, newer than this arena understands \\(${SCHEMA_VERSION}\\)`),
    );
    expect((await raw.query('SELECT version FROM arena_schema')).rows[0].version).toBe(SCHEMA_VERSION + 1);
  });

  it('a wrong password and a missing database are clear UsageErrors that never show the password', async () => {
    const good = new URL(clusterUrl());
    const wrong = new URL(good);
    wrong.password = 'not-the-password-xyz';
    const bad = new PostgresEventStore({ url: wrong.toString() });
    cleanups.push(() => bad.close());
    const authErr = (await bad.ready().catch((e: unknown) => e)) as Error;
    expect(authErr).toBeInstanceOf(UsageError);
    expect(authErr.message).toMatch(`PostgreSQL at 127.0.0.1:${good.port} refused user "arena": wrong password`);
    expect(authErr.message).not.toContain('not-the-password-xyz');

    const missing = new PostgresEventStore({ url: databaseUrl('no_such_db') });
    cleanups.push(() => missing.close());
    const dbErr = (await missing.ready().catch((e: unknown) => e)) as Error;
    expect(dbErr).toBeInstanceOf(UsageError);
    expect(dbErr.message).toBe(`PostgreSQL at 127.0.0.1:${good.port} has no database "no_such_db"`);
    expect(dbErr.message).not.toContain(good.password);
    expect(missing.location).toBe(`postgres://arena:***@127.0.0.1:${good.port}/no_such_db`);
  });

  it('an unreachable server is a RuntimeError naming host and port, without the password', async () => {
    // a port that was free a moment ago: nothing listens there
    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => resolve(p));
      });
    });
    const store = new PostgresEventStore({ url: `postgres://arena:s3cret-pw@127.0.0.1:${port}/db` });
    cleanups.push(() => store.close());
    const err = (await store.append('s', [{ type: 'a', data: null }], 0).catch((e: unknown) => e)) as Error;
    expect(err).toBeInstanceOf(RuntimeError);
    expect(err.message).toBe(`cannot reach PostgreSQL at 127.0.0.1:${port}: ECONNREFUSED`);
    expect(JSON.stringify({ ...err, message: err.message })).not.toContain('s3cret-pw');
  });

  it('waiting for a pooled connection is not a connect timeout: an append queued behind a busy pool is recorded', async () => {
    const db = await createDatabase('pgqueue');
    cleanups.push(() => db.drop());
    // one connection, a 200 ms connect timeout, and that connection busy for 1 s: the append waits
    // for it (under 2 x 1,000 concurrent actions the wait passed the timeout and appends failed)
    const store = new PostgresEventStore({ url: db.url, poolSize: 1, connectTimeoutMs: 200 });
    cleanups.push(() => store.close());
    await store.ready();
    const busy = store.query('SELECT pg_sleep(1)');
    const [event] = await store.append('s', [{ type: 'a', data: null }], 0);
    await busy;
    expect(event!.version).toBe(1);
  });

  it('a server that accepts and never answers fails each connection within the connect timeout', async () => {
    const sockets: Array<import('node:net').Socket> = [];
    const silent = createServer((socket) => sockets.push(socket));
    const port = await new Promise<number>((resolve) =>
      silent.listen(0, '127.0.0.1', () => resolve((silent.address() as { port: number }).port)),
    );
    cleanups.push(
      () =>
        new Promise((r) => {
          for (const s of sockets) s.destroy();
          silent.close(r);
        }),
    );
    const store = new PostgresEventStore({ url: `postgres://arena@127.0.0.1:${port}/db`, connectTimeoutMs: 300 });
    cleanups.push(() => store.close());
    const err = (await store.append('s', [{ type: 'a', data: null }], 0).catch((e: unknown) => e)) as Error;
    expect(err).toBeInstanceOf(RuntimeError);
    expect(err.message).toMatch(new RegExp(`cannot reach PostgreSQL at 127\\.0\\.0\\.1:${port}`));
  });
});
