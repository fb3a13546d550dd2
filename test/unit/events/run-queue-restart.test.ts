/**
 * Issue 39: a PostgreSQL restart made the regress coordinator and its workers
 * exit, runs orphaned on the queue. On a real cluster of its own, restarted
 * while a worker executes a run: the coordinator and the worker wait for it
 * and carry on, and every run is scored once.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { PostgresEventStore } from '../../../src/events/postgres.js';
import { PostgresRunQueue } from '../../../src/events/run-queue.js';
import { createQueueArena } from '../../../src/arena/regression/queue.js';
import type { ArmRunRequest } from '../../../src/arena/regression/types.js';
import { runWorker, type WorkerEvent } from '../../../src/arena/queue/worker.js';
import type { ScoreReport } from '../../../src/arena/report.js';
// @ts-expect-error plain ESM script without types, shared with the benchmarks
import { startCluster } from '../../../scripts/pg-cluster.mjs';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const request = (run: number): ArmRunRequest => ({
  arm: 'baseline',
  run,
  seed: run,
  strategy: { name: 's' },
  workload: { survival: { duration_ms: 10, interval_ms: 5 } },
});

describe('the run queue through a restart of PostgreSQL', () => {
  it('the coordinator and a worker wait for the database and carry on: every run scored once', async () => {
    const cluster = await startCluster();
    cleanups.push(() => cluster.stop());
    const open = () => {
      const store = new PostgresEventStore({ url: cluster.urlFor('postgres'), connectTimeoutMs: 1000 });
      cleanups.push(() => store.close());
      return new PostgresRunQueue(store);
    };
    const coordinator = createQueueArena({ queue: open(), batch: 'b', pollMs: 20 });
    const stop = new AbortController();
    cleanups.push(() => stop.abort());
    const events: WorkerEvent['type'][] = [];
    const executed: number[] = [];
    const worker = runWorker({
      queue: open(),
      name: 'w',
      idleMs: 20,
      leaseMs: 60_000,
      signal: stop.signal,
      onEvent: (e) => events.push(e.type),
      arena: {
        async runArm(r) {
          executed.push(r.run);
          // PostgreSQL restarts while this run executes: its score is written once it is back
          if (r.run === 1) {
            await cluster.stopServer();
            await new Promise((resolve) => setTimeout(resolve, 500));
            await cluster.startServer();
          }
          return { score: 50 + r.run } as ScoreReport;
        },
      },
    });
    const scores = await Promise.all([0, 1, 2, 3].map((i) => coordinator.runArm(request(i)).then((r) => r.score)));
    expect(scores).toEqual([50, 51, 52, 53]);
    expect(executed.sort()).toEqual([0, 1, 2, 3]);
    stop.abort();
    await expect(worker).resolves.toEqual({ completed: 4 });
    expect(events.filter((e) => e === 'done')).toHaveLength(4);
    await coordinator.close();
  }, 120_000);
});
