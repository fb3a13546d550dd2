/**
 * Issue 39: an open transaction elsewhere in the cluster (another database, or
 * another table of this one) held every live reader of the PostgreSQL store,
 * and so every `/arena/stream`, for as long as it stayed open. A transaction
 * that holds none of the store's append locks can never add an event, so it
 * must not hold readers back (postgres-schema.ts, migration 4).
 */
import { afterEach, describe, expect, it } from 'vitest';
import pg from 'pg';
import { PostgresEventStore } from '../../../src/events/postgres.js';
import { createDatabase } from '../../helpers/postgres.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** a transaction that has written (so it has an id) and stays open until the test ends */
async function openTransaction(url: string, write: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  cleanups.push(() => client.end());
  await client.query('BEGIN');
  await client.query(write);
  await client.query('SELECT pg_current_xact_id()');
  cleanups.push(() => client.query('ROLLBACK'));
}

describe('the PostgreSQL store beside open transactions', () => {
  it('a live subscriber gets a new event while transactions in another database and on another table stay open', async () => {
    const db = await createDatabase('horizon');
    cleanups.push(() => db.drop());
    const other = await createDatabase('horizon_other');
    cleanups.push(() => other.drop());
    const store = new PostgresEventStore({ url: db.url });
    cleanups.push(() => store.close());
    await store.append('arena', [{ type: 'before', data: {} }]);
    await openTransaction(other.url, 'CREATE TABLE elsewhere (x int)');
    await openTransaction(db.url, 'CREATE TABLE beside (x int)');

    const ac = new AbortController();
    cleanups.push(() => ac.abort());
    const iterator = store.subscribe({ stream_id: 'arena' }, undefined, { signal: ac.signal })[Symbol.asyncIterator]();
    const next = iterator.next();
    await store.append('arena', [{ type: 'live', data: { n: 1 } }]);
    // a safety net only: held back, it would arrive when the transactions end (never, in this test)
    const got = await Promise.race([
      next,
      new Promise<'held back'>((r) => setTimeout(() => r('held back'), 20_000).unref()),
    ]);
    expect(got).not.toBe('held back');
    expect((got as IteratorResult<{ type: string }>).value).toMatchObject({ type: 'live' });
  }, 60_000);
});
