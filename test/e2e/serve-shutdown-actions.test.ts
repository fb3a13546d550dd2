/**
 * `arena serve` stopped (SIGTERM) while actions are in flight, on a PostgreSQL store:
 * an action the server answered 2xx is an event, and one it answered otherwise (or
 * not at all) is none. A request still being read when the stop came is refused
 * before anything is applied; one whose fault was applied is finished and answered
 * truthfully, never a 503 after its record.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import pg from 'pg';
import { createDatabase } from '../helpers/postgres.js';
import { startServe } from './serve-helpers.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function recordedIds(url: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ data: string }>("SELECT data FROM arena_events WHERE stream_id = 'arena'");
    return rows.map((r) => (JSON.parse(r.data) as { action: { id: string } }).action.id);
  } finally {
    await client.end();
  }
}

/** an action that every call applies (a short slow-down), under an id the client chose */
async function act(base: string, id: string): Promise<{ id: string; status: number; code?: string }> {
  try {
    const res = await fetch(`${base}/arena/actions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        id,
        type: 'slow_agent',
        target_id: 'agent-2',
        metadata: { duration: '50ms', delay: '1ms' },
      }),
    });
    const body = (await res.json().catch(() => ({}))) as { code?: string };
    return { id, status: res.status, ...(body.code ? { code: body.code } : {}) };
  } catch {
    // no answer at all (the connection refused or closed): the client knows nothing, and nothing may be recorded
    return { id, status: 0 };
  }
}

type Reply = Awaited<ReturnType<typeof act>>;

/** answered 2xx and not recorded is a lie; recorded and answered otherwise (or not at all) is one too */
async function expectTruthful(url: string, results: Reply[]): Promise<Reply[]> {
  const recorded = new Set(await recordedIds(url));
  const ok = results.filter((r) => r.status >= 200 && r.status < 300);
  const byStatus = new Map<string, number>();
  for (const r of results)
    byStatus.set(`${r.status} ${r.code ?? ''}`, (byStatus.get(`${r.status} ${r.code ?? ''}`) ?? 0) + 1);
  const summary = JSON.stringify(Object.fromEntries(byStatus));
  expect(
    ok.filter((r) => !recorded.has(r.id)).map((r) => r.id),
    summary,
  ).toEqual([]);
  expect(
    results
      .filter((r) => !(r.status >= 200 && r.status < 300) && recorded.has(r.id))
      .map((r) => `${r.status} ${r.code}`),
    summary,
  ).toEqual([]);
  expect(recorded.size, summary).toBe(ok.length);
  return ok;
}

describe('arena serve stopped while actions are in flight', () => {
  it('every 2xx has its event and every other answer has none', async () => {
    const db = await createDatabase('shutdown');
    cleanups.push(() => db.drop());
    const server = await startServe(['--store', db.url]);
    cleanups.push(() => server.stop());
    const N = 200;
    const wave = () => Array.from({ length: N }, () => act(server.url, randomUUID()));
    let firstApplied!: () => void;
    const first = new Promise<void>((r) => (firstApplied = r));
    const before = wave().map((p) =>
      p.then((r) => {
        if (r.status === 200) firstApplied();
        return r;
      }),
    );
    // the stop arrives once one has been applied, while the others are being read, applied or recorded,
    // and a second wave arrives while the server is stopping
    await Promise.race([first, Promise.all(before)]);
    const stopping = server.stop();
    const during = wave();
    const stopped = await stopping;
    const results = await Promise.all([...before, ...during]);
    expect(stopped.exitCode, stopped.stderr).toBe(0);

    const ok = await expectTruthful(db.url, results);
    // the stop came while actions were in flight and arriving (the test tested something)
    expect(ok.length).toBeGreaterThan(0);
    expect(ok.length).toBeLessThan(results.length);
  }, 180_000);

  it('actions whose records wait on a contended store past the grace time are finished and answered 200, not 503', async () => {
    const db = await createDatabase('shutdown_held');
    cleanups.push(() => db.drop());
    const server = await startServe(['--store', db.url]);
    cleanups.push(() => server.stop());
    // another writer holds the arena stream's append lock (the store takes it per stream, postgres-schema.ts)
    const holder = new pg.Client({ connectionString: db.url });
    await holder.connect();
    cleanups.push(() => holder.end());
    await holder.query('SELECT pg_advisory_lock(1095913025, hashtext($1))', ['arena']);
    const N = 20;
    const replies = Promise.all(Array.from({ length: N }, () => act(server.url, randomUUID())));
    // until the first append waits on the lock: its fault is applied, its record pending
    const deadline = Date.now() + 60_000;
    for (;;) {
      const { rows } = await holder.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted",
      );
      if (rows[0]!.n > 0) break;
      if (Date.now() > deadline) throw new Error('no append ever waited on the held lock');
      await new Promise((r) => setTimeout(r, 20));
    }
    const stopping = server.stop();
    // longer than the server's grace time for requests in flight (5 s): the shutdown is out of time
    await new Promise((r) => setTimeout(r, 6_000));
    await holder.query('SELECT pg_advisory_unlock(1095913025, hashtext($1))', ['arena']);
    const stopped = await stopping;
    const results = await replies;
    expect(stopped.exitCode, stopped.stderr).toBe(0);
    const ok = await expectTruthful(db.url, results);
    // the one that waited on the lock had its fault applied: it is finished, recorded and answered
    expect(ok.length).toBeGreaterThan(0);
  }, 180_000);
});
