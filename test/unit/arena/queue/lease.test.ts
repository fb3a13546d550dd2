/**
 * A run whose worker stalls past its lease is taken again by another worker, and counted once: the
 * waiting side gets one result, the stalled worker's late result is never written. An in-memory queue
 * with the PostgreSQL queue's leases and fencing (a take's `attempt` must still be the run's).
 */
import { describe, expect, it } from 'vitest';
import {
  createQueueClient,
  type ClaimedRun,
  type QueuedRequest,
  type RunOutcome,
  type RunQueue,
} from '../../../../src/arena/queue/queue.js';
import { runWorker, type WorkerEvent } from '../../../../src/arena/queue/worker.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Row {
  key: string;
  request: QueuedRequest;
  state: 'queued' | 'running' | 'done' | 'failed';
  attempts: number;
  leaseUntil: number;
  result?: unknown;
  writes: number;
}

function leasedQueue(options: { stalledRenewal?: string; stallMs?: number } = {}) {
  const rows = new Map<string, Row>();
  const held = (run: ClaimedRun) => {
    const r = rows.get(run.id)!;
    return r.state === 'running' && r.attempts === run.attempt;
  };
  const queue: RunQueue = {
    async enqueue(batch, key, request) {
      const id = `${batch}/${key}`;
      if (!rows.has(id)) rows.set(id, { key, request, state: 'queued', attempts: 0, leaseUntil: 0, writes: 0 });
    },
    async outcomes(batch, keys) {
      const out: RunOutcome[] = [];
      for (const key of keys) {
        const r = rows.get(`${batch}/${key}`);
        if (r?.state === 'done') out.push({ key, state: 'done', result: r.result });
      }
      return out;
    },
    async cancel() {},
    async claim(_worker, leaseMs) {
      for (const [id, r] of rows) {
        if (r.state === 'queued' || (r.state === 'running' && r.leaseUntil < Date.now())) {
          r.state = 'running';
          r.attempts += 1;
          r.leaseUntil = Date.now() + leaseMs;
          return { id, attempt: r.attempts, request: r.request };
        }
      }
      return undefined;
    },
    async renew(run, worker, leaseMs) {
      // the stalled worker's renewal arrives late (a stopped process, a network stall)
      if (worker === options.stalledRenewal) await sleep(options.stallMs ?? 0);
      if (!held(run)) return false;
      rows.get(run.id)!.leaseUntil = Date.now() + leaseMs;
      return true;
    },
    async complete(run, result) {
      if (!held(run)) return false;
      const r = rows.get(run.id)!;
      r.state = 'done';
      r.result = result;
      r.writes += 1;
      return true;
    },
    async fail(run) {
      if (!held(run)) return false;
      rows.get(run.id)!.state = 'failed';
      return true;
    },
    async release(run) {
      if (held(run)) rows.get(run.id)!.state = 'queued';
    },
  };
  return { queue, rows };
}

const shrinkRun: QueuedRequest = { kind: 'shrink', target: {}, seed: 1, scenario: { name: 's' } as never };

describe('a run on the queue whose worker stalls past its lease', () => {
  it('is taken again by another worker; the stalled one notices it lost the run and writes nothing', async () => {
    const { queue, rows } = leasedQueue({ stalledRenewal: 'A', stallMs: 400 });
    const client = createQueueClient({ queue, batch: 'b', pollMs: 10 });
    const stopA = new AbortController();
    const stopB = new AbortController();
    const events: Record<string, WorkerEvent[]> = { A: [], B: [] };
    const workerA = runWorker({
      queue,
      name: 'A',
      leaseMs: 150,
      idleMs: 10,
      signal: stopA.signal,
      onEvent: (e) => events.A!.push(e),
      // runs until it is told to stop: only a lost lease ends it
      executors: { shrink: (_r, signal) => new Promise((_, reject) => signal.addEventListener('abort', reject)) },
    });
    const result = client.run('run-0', shrinkRun);
    // A has it; B starts once A's lease can lapse
    await sleep(50);
    const workerB = runWorker({
      queue,
      name: 'B',
      leaseMs: 150,
      idleMs: 10,
      signal: stopB.signal,
      onEvent: (e) => events.B!.push(e),
      executors: { shrink: async () => ({ from: 'B' }) },
    });
    expect(await result).toEqual({ from: 'B' });
    await sleep(500);
    stopA.abort();
    stopB.abort();
    await Promise.all([workerA, workerB]);
    expect(events.A!.map((e) => e.type)).toEqual(['took', 'lost']);
    expect(events.B!.filter((e) => e.type === 'done')).toMatchObject([{ written: true, run: { attempt: 2 } }]);
    expect([...rows.values()]).toMatchObject([{ state: 'done', attempts: 2, writes: 1, result: { from: 'B' } }]);
  });

  it('a stalled worker that finishes anyway after the run was taken again: its result is refused, the first written stays', async () => {
    const { queue, rows } = leasedQueue({ stalledRenewal: 'A', stallMs: 600 });
    const client = createQueueClient({ queue, batch: 'b', pollMs: 10 });
    const stop = new AbortController();
    const events: WorkerEvent[] = [];
    let releaseA: () => void = () => undefined;
    const aDone = new Promise<void>((r) => (releaseA = r));
    const workerA = runWorker({
      queue,
      name: 'A',
      leaseMs: 150,
      idleMs: 10,
      signal: stop.signal,
      onEvent: (e) => events.push(e),
      // ignores its signal: finishes when the test says so
      executors: {
        shrink: async () => {
          await aDone;
          return { from: 'A' };
        },
      },
    });
    const result = client.run('run-0', shrinkRun);
    await sleep(200);
    const workerB = runWorker({
      queue,
      name: 'B',
      leaseMs: 150,
      idleMs: 10,
      signal: stop.signal,
      executors: { shrink: async () => ({ from: 'B' }) },
    });
    expect(await result).toEqual({ from: 'B' });
    releaseA();
    await sleep(100);
    expect(events.find((e) => e.type === 'done')).toMatchObject({ written: false, run: { attempt: 1 } });
    expect([...rows.values()]).toMatchObject([{ attempts: 2, writes: 1, result: { from: 'B' } }]);
    stop.abort();
    await Promise.all([workerA, workerB]);
  });

  it('a worker told to stop gives its run back even when the executor returns what it did so far (a block’s first trials)', async () => {
    const { queue, rows } = leasedQueue();
    const stop = new AbortController();
    const events: WorkerEvent[] = [];
    const worker = runWorker({
      queue,
      name: 'A',
      leaseMs: 1_000,
      idleMs: 10,
      signal: stop.signal,
      onEvent: (e) => events.push(e),
      executors: {
        shrink: (_r, signal) =>
          new Promise((resolve) => signal.addEventListener('abort', () => resolve({ partial: true }))),
      },
    });
    await queue.enqueue('b', 'run-0', shrinkRun);
    await sleep(50);
    stop.abort();
    await worker;
    expect(events.map((e) => e.type)).toEqual(['took', 'released']);
    expect([...rows.values()]).toMatchObject([{ state: 'queued', writes: 0 }]);
  });
});
