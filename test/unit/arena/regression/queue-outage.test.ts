/**
 * The regress coordinator (queue arena) and its workers through a queue whose
 * database stops answering for a while (a PostgreSQL restart): both wait with
 * backoff and carry on, every run is scored once; a longer outage than the
 * coordinator's bound fails its runs with the database's error, not a hang.
 */
import { describe, expect, it } from 'vitest';
import type { ClaimedRun, QueuedRequest, RunOutcome, RunQueue } from '../../../../src/arena/queue/queue.js';
import { runWorker, type WorkerEvent } from '../../../../src/arena/queue/worker.js';
import { createQueueArena } from '../../../../src/arena/regression/queue.js';
import type { ScoreReport } from '../../../../src/arena/report.js';
import { RuntimeError } from '../../../../src/shared/errors.js';

/** an in-memory queue whose every call fails while `down` */
function flakyQueue() {
  const runs = new Map<string, { request: QueuedRequest; state: string; attempt: number; report?: ScoreReport }>();
  const state = { down: false, calls: 0 };
  const gate = async () => {
    state.calls += 1;
    if (state.down)
      throw new RuntimeError('cannot reach PostgreSQL at 127.0.0.1:5432: ECONNREFUSED', { code: 'store_unreachable' });
  };
  const queue: RunQueue = {
    async enqueue(batch, key, request) {
      await gate();
      if (!runs.has(`${batch}/${key}`)) runs.set(`${batch}/${key}`, { request, state: 'queued', attempt: 0 });
    },
    async outcomes(batch, keys) {
      await gate();
      const out: RunOutcome[] = [];
      for (const key of keys) {
        const r = runs.get(`${batch}/${key}`);
        if (r?.state === 'done') out.push({ key, state: 'done', result: r.report! });
      }
      return out;
    },
    async cancel() {
      await gate();
    },
    async claim() {
      await gate();
      for (const [id, r] of runs) {
        if (r.state !== 'queued') continue;
        r.state = 'running';
        r.attempt += 1;
        return { id, attempt: r.attempt, request: r.request } satisfies ClaimedRun;
      }
      return undefined;
    },
    async renew() {
      await gate();
      return true;
    },
    async complete(run, report) {
      await gate();
      const r = runs.get(run.id)!;
      if (r.state !== 'running') return false;
      r.state = 'done';
      r.report = report as ScoreReport;
      return true;
    },
    async fail() {
      await gate();
      return true;
    },
    async release() {
      await gate();
    },
  };
  return { queue, state, runs };
}

const report = (score: number) => ({ score }) as ScoreReport;
const request = (run: number) => ({
  arm: 'baseline' as const,
  run,
  seed: run,
  strategy: {},
  workload: {} as never,
});

describe('regress over a queue whose database restarts', () => {
  it('the coordinator and a worker wait for the database and carry on: every run scored once', async () => {
    const { queue, state } = flakyQueue();
    const arena = createQueueArena({ queue, batch: 'b', pollMs: 10 });
    const ac = new AbortController();
    const events: WorkerEvent['type'][] = [];
    let executed = 0;
    const worker = runWorker({
      queue,
      name: 'w',
      idleMs: 10,
      leaseMs: 60_000,
      signal: ac.signal,
      onEvent: (e) => events.push(e.type),
      arena: {
        async runArm(r) {
          executed += 1;
          // the database goes away while this run executes, and comes back a moment later
          if (r.run === 1) {
            state.down = true;
            setTimeout(() => (state.down = false), 300);
          }
          return report(50 + r.run);
        },
      },
    });
    const scores = await Promise.all([0, 1, 2, 3].map((i) => arena.runArm(request(i)).then((r) => r.score)));
    expect(scores).toEqual([50, 51, 52, 53]);
    expect(executed).toBe(4);
    expect(events).toContain('waiting');
    expect(events).toContain('reconnected');
    ac.abort();
    await expect(worker).resolves.toEqual({ completed: 4 });
    await arena.close();
  });

  it('an outage longer than the coordinator waits fails its runs with the database error', async () => {
    const { queue, state } = flakyQueue();
    const arena = createQueueArena({ queue, batch: 'b', pollMs: 10, outageMs: 200 });
    state.down = true;
    const err = await arena.runArm(request(0)).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'store_unreachable' });
    expect(state.calls).toBeGreaterThan(1); // tried again before giving up
  });
});
