/** The PostgreSQL run queue's guarantees, on a real database: SKIP LOCKED takes, leases, fencing. */
import { afterEach, describe, expect, it } from 'vitest';
import { PostgresEventStore } from '../../../src/events/postgres.js';
import { MAX_LAPSES, PostgresRunQueue } from '../../../src/events/run-queue.js';
import type { QueuedRequest } from '../../../src/arena/queue/queue.js';
import type { QueuedArmRun } from '../../../src/arena/queue/requests.js';
import type { ScoreReport } from '../../../src/arena/report.js';
import { createDatabase } from '../../helpers/postgres.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function queue(): Promise<PostgresRunQueue> {
  return (await queueAndStore()).q;
}

async function queueAndStore(): Promise<{ q: PostgresRunQueue; store: PostgresEventStore }> {
  const db = await createDatabase('queue');
  cleanups.push(() => db.drop());
  const store = new PostgresEventStore({ url: db.url });
  cleanups.push(() => store.close());
  return { q: new PostgresRunQueue(store), store };
}

const request = (run: number): QueuedArmRun => ({
  kind: 'regress',
  arm: 'baseline',
  run,
  seed: 100 + run,
  strategy: { name: 's' },
  workload: { survival: { duration_ms: 10, interval_ms: 5 } },
});
const report = (score: number) => ({ score }) as ScoreReport;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('PostgresRunQueue', () => {
  it('concurrent takers each get a different run; enqueue is idempotent', async () => {
    const q = await queue();
    for (let i = 0; i < 5; i++) await q.enqueue('b', `baseline:${i}`, request(i));
    await q.enqueue('b', 'baseline:0', request(0));
    const taken = await Promise.all(Array.from({ length: 7 }, (_, i) => q.claim(`w${i}`, 60_000)));
    const runs = taken.filter((t) => t !== undefined).map((t) => (t!.request as QueuedArmRun).run);
    expect(runs.sort()).toEqual([0, 1, 2, 3, 4]);
    expect(taken.filter((t) => t === undefined)).toHaveLength(2);
  });

  it('a lapsed lease lets another worker take the run; the first worker can no longer renew or write a score', async () => {
    const q = await queue();
    await q.enqueue('b', 'baseline:0', request(0));
    const first = (await q.claim('w1', 400))!;
    expect(await q.claim('w2', 60_000)).toBeUndefined();
    await sleep(500);
    const second = (await q.claim('w2', 60_000))!;
    expect(second).toMatchObject({ id: first.id, attempt: first.attempt + 1 });
    expect(await q.renew(first, 'w1', 60_000)).toBe(false);
    expect(await q.complete(first, report(1))).toBe(false);
    expect(await q.complete(second, report(2))).toBe(true);
    expect(await q.complete(second, report(3))).toBe(false);
    expect(await q.outcomes('b', ['baseline:0'])).toEqual([{ key: 'baseline:0', state: 'done', result: { score: 2 } }]);
  });

  it(`a run whose workers keep dying fails after ${MAX_LAPSES} lapsed leases instead of circulating forever`, async () => {
    const q = await queue();
    await q.enqueue('b', 'baseline:0', request(0));
    for (let i = 0; i < MAX_LAPSES; i++) {
      expect(await q.claim(`w${i}`, 20)).toBeDefined();
      await sleep(60);
    }
    expect(await q.claim('late', 20)).toBeUndefined();
    const [outcome] = await q.outcomes('b', ['baseline:0']);
    expect(outcome).toMatchObject({
      state: 'failed',
      error: `its worker stopped without a score (lease lapsed) ${MAX_LAPSES} times`,
    });
  });

  it('a released run is queued again; cancel withdraws what nobody took', async () => {
    const q = await queue();
    await q.enqueue('b', 'baseline:0', request(0));
    await q.enqueue('b', 'baseline:1', request(1));
    const run = (await q.claim('w1', 60_000))!;
    await q.release(run);
    expect(((await q.claim('w2', 60_000))!.request as QueuedArmRun).run).toBe(0);
    await q.cancel('b');
    expect(await q.claim('w3', 60_000)).toBeUndefined();
  });

  it('a worker takes only the kinds it executes; a row written before kinds existed is a regress run', async () => {
    const { q, store } = await queueAndStore();
    await store.ready();
    const shrink: QueuedRequest = {
      kind: 'shrink',
      target: {},
      seed: 1,
      scenario: { name: 's', actions: [] } as never,
    };
    await q.enqueue('b', 'run-0', shrink);
    await q.enqueue('b', 'baseline:0', request(0));
    const regressOnly = (await q.claim('w1', 60_000, ['regress']))!;
    expect(regressOnly.request).toMatchObject({ kind: 'regress', run: 0 });
    expect(await q.claim('w1', 60_000, ['regress'])).toBeUndefined();
    expect((await q.claim('w2', 60_000, ['trial', 'shrink']))!.request.kind).toBe('shrink');
    // as a version before the kinds wrote it: no kind in the JSON, the column's default
    const { kind: _, ...old } = request(1);
    await store.query('INSERT INTO arena_runs (batch, run_key, request) VALUES ($1, $2, $3)', [
      'b',
      'baseline:1',
      JSON.stringify(old),
    ]);
    expect(await q.claim('w3', 60_000, ['trial', 'shrink'])).toBeUndefined();
    expect((await q.claim('w3', 60_000))!.request).toMatchObject({ kind: 'regress', arm: 'baseline', run: 1 });
  });
});
