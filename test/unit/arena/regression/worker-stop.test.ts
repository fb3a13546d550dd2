/**
 * A worker told to stop while it is taking a run: the run it gets back is
 * given back to the queue at once, not executed to the end (or held until
 * its lease lapses) because the stop came before it started.
 */
import { describe, expect, it } from 'vitest';
import type { ClaimedRun, QueuedRequest, RunQueue } from '../../../../src/arena/queue/queue.js';
import { runWorker, type WorkerEvent } from '../../../../src/arena/queue/worker.js';

const request: QueuedRequest = {
  kind: 'regress',
  arm: 'baseline',
  run: 0,
  seed: 1,
  strategy: {},
  workload: {} as never,
};

describe('a worker stopping', () => {
  it('gives back a run whose take answered after the stop', async () => {
    const stop = new AbortController();
    const released: string[] = [];
    const claimed: ClaimedRun = { id: '1', attempt: 1, request };
    const queue: RunQueue = {
      enqueue: async () => undefined,
      outcomes: async () => [],
      cancel: async () => undefined,
      // the database answers the take just after the worker was told to stop
      claim: async () => {
        stop.abort();
        return claimed;
      },
      renew: async () => true,
      complete: async () => true,
      fail: async () => true,
      release: async (run) => {
        released.push(run.id);
      },
    };
    const events: WorkerEvent['type'][] = [];
    const worker = runWorker({
      queue,
      name: 'w',
      leaseMs: 60_000,
      signal: stop.signal,
      // a run that only ends when the worker aborts it
      arena: {
        runArm: ({ signal }) =>
          new Promise((_, reject) =>
            signal?.addEventListener('abort', () => reject(new Error('aborted')), { once: true }),
          ),
      },
      onEvent: (e) => events.push(e.type),
    });
    // a safety net only: without the fix the worker never returns
    const outcome = await Promise.race([
      worker.then(() => 'stopped'),
      new Promise((r) => setTimeout(() => r('still running'), 10_000).unref()),
    ]);
    expect(outcome).toBe('stopped');
    expect(events).toEqual(['took', 'released']);
    expect(released).toEqual(['1']);
  });
});
