/** What the web console's Regress panel reads: the queue's per-arm counts and what regress recorded, on a real database. */
import { afterEach, describe, expect, it } from 'vitest';
import { PostgresEventStore } from '../../../src/events/postgres.js';
import { PostgresRunQueue } from '../../../src/events/run-queue.js';
import { createRegressRecorder, readRegressJobs } from '../../../src/events/regress-progress.js';
import type { QueuedArmRun } from '../../../src/arena/queue/requests.js';
import { runWorker, type WorkerEvent } from '../../../src/arena/queue/worker.js';
import { systemClock } from '../../../src/shared/clock.js';
import type { ScoreReport } from '../../../src/arena/report.js';
import { createDatabase } from '../../helpers/postgres.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const request = (arm: 'baseline' | 'candidate', run: number): QueuedArmRun => ({
  kind: 'regress',
  arm,
  run,
  seed: 100 + run,
  strategy: { name: arm },
  workload: { survival: { duration_ms: 10, interval_ms: 5 } },
});
const PLAN = { baseline: 'b.yaml', candidate: 'c.yaml', seed: 7, adaptive: false, max_runs: 3, alpha: 0.05 };

describe('regress progress', () => {
  it('per arm: queued, on a worker, done, failed; the paired estimate over complete pairs; looks, then the verdict; newest job first', async () => {
    const db = await createDatabase('progress');
    cleanups.push(() => db.drop());
    const store = new PostgresEventStore({ url: db.url });
    cleanups.push(() => store.close());
    const queue = new PostgresRunQueue(store);

    // an older job that stopped without a verdict (its run withdrawn, as an interrupted regress does)
    await queue.enqueue('old', 'baseline:0', request('baseline', 0));
    await queue.cancel('old');
    const oldRecorder = createRegressRecorder(store, 'old');
    oldRecorder.started(PLAN);
    oldRecorder.failed(new Error('run interrupted'));
    await oldRecorder.flush();

    for (let run = 0; run < 3; run++)
      for (const arm of ['baseline', 'candidate'] as const)
        await queue.enqueue('job', `${arm}:${run}`, request(arm, run));
    const recorder = createRegressRecorder(store, 'job');
    recorder.started(PLAN);
    // worker w1 finishes baseline 0 and candidate 0, w2 holds baseline 1, baseline 2's run fails
    for (const score of [40, 70]) {
      const run = (await queue.claim('w1', 60_000))!;
      await queue.complete(run, { score } as ScoreReport);
      const r = run.request as QueuedArmRun;
      recorder.event({ type: 'run', arm: r.arm, run: r.run, seed: r.seed, score });
    }
    // regress counted a baseline score for run 1 whose candidate is missing: not a pair yet
    recorder.event({ type: 'run', arm: 'baseline', run: 1, seed: 101, score: 10 });
    await queue.claim('w2', 60_000);
    await queue.claim('w2', 60_000);
    const failing = (await queue.claim('w1', 60_000))!;
    await queue.fail(failing, 'target crashed');
    await recorder.flush();

    let [job, old] = await readRegressJobs(store, 20);
    expect(job).toMatchObject({
      batch: 'job',
      plan: PLAN,
      status: 'running',
      workers: ['w1', 'w2'],
      estimate: { pairs: 1, difference: 30, baseline_mean: 40, candidate_mean: 70 },
      looks: [],
    });
    expect(job!.arms).toEqual({
      baseline: { queued: 0, running: 1, done: 1, failed: 1, total: 3 },
      candidate: { queued: 1, running: 1, done: 1, failed: 0, total: 3 },
    });
    expect(old).toMatchObject({
      batch: 'old',
      status: 'failed',
      error: 'run interrupted',
      arms: { baseline: { queued: 0, running: 0, done: 0, total: 1 } },
    });

    recorder.event({
      type: 'look',
      look: { index: 0, n: 2, p_value: 0.2, nominal_p: 0.01, z_boundary: 2.5, decision: 'continue' },
    });
    recorder.finished({
      decision: 'candidate better',
      difference: 30,
      p_value: 0.001,
      ci: [20, 40],
      runs_used: 3,
      stopped: 'efficacy',
    });
    await recorder.flush();
    [job] = await readRegressJobs(store, 1);
    expect(job).toMatchObject({
      status: 'finished',
      looks: [{ n: 2, decision: 'continue' }],
      outcome: { decision: 'candidate better', runs_used: 3, ci: [20, 40], stopped: 'efficacy' },
    });
    expect(await readRegressJobs(store, 1)).toHaveLength(1);

    // trials and shrink runs share the queue: they are no regress jobs, however new
    await queue.enqueue('trials-7', 'r0', {
      kind: 'trial',
      target: {},
      seed: 7,
      round: 0,
      blocks: [],
      recovery_deadline_ms: 1000,
    });
    const jobs = await readRegressJobs(store, 20);
    expect(jobs.map((j) => j.batch)).toEqual(['job', 'old']);
  });

  it('a running job whose coordinator stopped heartbeating is abandoned; one with a verdict never is', async () => {
    const db = await createDatabase('abandoned');
    cleanups.push(() => db.drop());
    const store = new PostgresEventStore({ url: db.url });
    cleanups.push(() => store.close());
    const queue = new PostgresRunQueue(store);
    for (const batch of ['alive', 'done']) await queue.enqueue(batch, 'baseline:0', request('baseline', 0));
    const alive = createRegressRecorder(store, 'alive', { heartbeatMs: 20 });
    alive.started(PLAN);
    const done = createRegressRecorder(store, 'done', { heartbeatMs: 20 });
    done.started(PLAN);
    done.finished({ decision: 'no_difference', difference: 0, p_value: 1, ci: [0, 0], runs_used: 1 });
    await done.flush();
    // a few heartbeats from the live one
    const deadline = Date.now() + 10_000;
    let heartbeats = 0;
    while (heartbeats < 3 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 20));
      await alive.flush();
      const rows = await store.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM arena_events WHERE stream_id = 'regress:alive' AND type = 'regress.heartbeat'",
      );
      heartbeats = rows[0]!.n;
    }
    expect(heartbeats).toBeGreaterThanOrEqual(3);
    const byBatch = async (now?: number) =>
      Object.fromEntries((await readRegressJobs(store, 20, now)).map((j) => [j.batch, j]));
    const live = await byBatch();
    expect(live.alive).toMatchObject({ status: 'running', coordinator_seen_at: expect.any(String) });
    expect(live.done).toMatchObject({ status: 'finished' });
    // the heartbeats say it is alive; they are not progress
    expect(live.alive!.updated_at <= live.alive!.coordinator_seen_at!).toBe(true);
    alive.failed(new Error('never mind')); // stops the heartbeat timer of this test
    await alive.flush();
    await store.query("DELETE FROM arena_events WHERE stream_id = 'regress:alive' AND type = 'regress.failed'");
    // 31 s later with no word from its coordinator (killed): abandoned, not running for ever
    const later = await byBatch(Date.now() + 31_000);
    expect(later.alive).toMatchObject({ status: 'abandoned' });
    expect(later.done).toMatchObject({ status: 'finished' });
  });

  it('the runs of an abandoned job are withdrawn: no worker takes them, the worker holding one gives it up, a late coordinator is told', async () => {
    const db = await createDatabase('withdrawn');
    cleanups.push(() => db.drop());
    const store = new PostgresEventStore({ url: db.url });
    cleanups.push(() => store.close());
    // the abandoned job's coordinator: its last word was 31 s ago
    const silent = new PostgresEventStore({
      url: db.url,
      clock: { ...systemClock, wallNow: () => new Date(Date.now() - 31_000) },
    });
    cleanups.push(() => silent.close());
    const queue = new PostgresRunQueue(store);
    for (const key of ['baseline:0', 'candidate:0', 'baseline:1'])
      await queue.enqueue(
        'gone',
        key,
        request(key.startsWith('baseline') ? 'baseline' : 'candidate', Number(key.at(-1))),
      );
    await queue.enqueue('alive', 'baseline:0', request('baseline', 0));
    // a job whose coordinator has not recorded its start yet is not judged
    await queue.enqueue('new', 'baseline:0', request('baseline', 0));
    await store.append('regress:alive', [{ type: 'regress.started', data: PLAN }]);

    // a worker takes gone's first run and holds it (its run only ends when the worker is told to give it up)
    const events: WorkerEvent[] = [];
    const stop = new AbortController();
    cleanups.push(() => stop.abort());
    let took!: () => void;
    const taken = new Promise<void>((r) => (took = r));
    const worker = runWorker({
      queue,
      name: 'w1',
      leaseMs: 300,
      idleMs: 20,
      signal: stop.signal,
      arena: {
        runArm: ({ signal }) =>
          new Promise((_, reject) => {
            took();
            signal?.addEventListener('abort', () => reject(new Error('given up')), { once: true });
          }),
      },
      onEvent: (e) => events.push(e),
    });
    await taken;
    expect(events).toEqual([
      { type: 'took', run: expect.objectContaining({ request: expect.objectContaining({ arm: 'baseline', run: 0 }) }) },
    ]);
    await silent.append('regress:gone', [{ type: 'regress.started', data: PLAN }]);

    // its next renewal finds the job abandoned: the worker gives the run up, and takes none of gone's others
    const deadline = Date.now() + 20_000;
    while (!events.some((e) => e.type === 'lost') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(events.map((e) => e.type)).toContain('lost');
    stop.abort();
    await worker;
    const batchOf = new Map(
      (await store.query<{ id: string; batch: string }>('SELECT id::text, batch FROM arena_runs')).map((r) => [
        r.id,
        r.batch,
      ]),
    );
    // after giving it up the worker went on with other jobs' runs (given back when it stopped), never gone's
    const tookBatches = events.flatMap((e) => (e.type === 'took' ? [batchOf.get(e.run.id)] : []));
    expect(tookBatches[0]).toBe('gone');
    expect(tookBatches.slice(1)).not.toContain('gone');

    // nothing of gone is takeable any more; the live job's and the new job's runs are
    const claimed: string[] = [];
    for (let c = await queue.claim('w2', 60_000); c; c = await queue.claim('w2', 60_000))
      claimed.push(batchOf.get(c.id)!);
    expect(claimed.sort()).toEqual(['alive', 'new']);
    // a coordinator that was only stalled and still waits for its runs is told they were withdrawn
    const outcomes = await queue.outcomes('gone', ['baseline:0', 'candidate:0', 'baseline:1']);
    expect(outcomes).toHaveLength(3);
    for (const o of outcomes)
      expect(o).toMatchObject({ state: 'failed', error: expect.stringContaining('withdrawn: its job was abandoned') });
    const gone = (await readRegressJobs(store, 20)).find((j) => j.batch === 'gone');
    expect(gone).toMatchObject({
      status: 'abandoned',
      arms: { baseline: { queued: 0, running: 0, total: 2 }, candidate: { queued: 0, running: 0, total: 1 } },
    });
  });
});
