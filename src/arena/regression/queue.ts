/**
 * Regression runs on a queue shared by many machines. `createQueueArena` is a
 * RegressionArena whose runs are executed by workers: the tester above it is
 * unchanged, so regress decides exactly as it does locally (same seeds, same
 * pairs, same sequential looks), only the runs happen elsewhere. The queue
 * itself (PostgreSQL, FOR UPDATE SKIP LOCKED) is in src/events/run-queue.ts.
 */
import { CancelledError, RuntimeError } from '../../shared/errors.js';
import { systemClock, type Clock } from '../../shared/clock.js';
import { retrying } from '../../shared/retry.js';
import type { ScoreReport } from '../report.js';
import type { ArmRunRequest, RegressionArena } from './types.js';

/** what a run on the queue carries: an ArmRunRequest without its signal (it crosses machines as JSON) */
export type QueuedRequest = Omit<ArmRunRequest, 'signal'>;

export interface ClaimedRun {
  id: string;
  /** 1 for the first take; a run taken again after its lease lapsed has a higher one */
  attempt: number;
  request: QueuedRequest;
}

export type RunOutcome =
  | { key: string; state: 'done'; report: ScoreReport }
  | { key: string; state: 'failed'; error: string };

/** the queue as regress and the workers see it */
export interface RunQueue {
  /** idempotent per (batch, key) */
  enqueue(batch: string, key: string, request: QueuedRequest): Promise<void>;
  /** the finished runs among `keys` */
  outcomes(batch: string, keys: readonly string[]): Promise<RunOutcome[]>;
  /** runs of the batch nobody took yet are withdrawn */
  cancel(batch: string): Promise<void>;
  /** the oldest run that is queued or whose lease lapsed, leased to `worker` */
  claim(worker: string, leaseMs: number): Promise<ClaimedRun | undefined>;
  /** false when the run is no longer this attempt's (its lease lapsed and someone took it) */
  renew(run: ClaimedRun, worker: string, leaseMs: number): Promise<boolean>;
  /** writes the score back; false (nothing written) when this attempt no longer holds the run */
  complete(run: ClaimedRun, report: ScoreReport): Promise<boolean>;
  fail(run: ClaimedRun, error: string): Promise<boolean>;
  /** gives a run back unfinished (a worker stopping) */
  release(run: ClaimedRun): Promise<void>;
}

export interface QueueArenaOptions {
  queue: RunQueue;
  /** names this regress invocation's runs */
  batch: string;
  clock?: Clock;
  /** how often finished runs are looked for (ms, default 100) */
  pollMs?: number;
  /** how long the queue's database may not answer before the runs waiting on it fail (ms, default 2 min) */
  outageMs?: number;
}

export const DEFAULT_QUEUE_OUTAGE_MS = 120_000;

export function runKey(request: Pick<ArmRunRequest, 'arm' | 'run'>): string {
  return `${request.arm}:${request.run}`;
}

/** a RegressionArena that enqueues each run and waits for a worker's score */
export function createQueueArena(options: QueueArenaOptions): RegressionArena & { close(): Promise<void> } {
  const clock = options.clock ?? systemClock;
  const waiting = new Map<string, { resolve(r: ScoreReport): void; reject(e: Error): void }>();
  let polling: Promise<void> | undefined;
  let closed = false;
  // a database restart is waited for (with backoff), a longer outage fails the runs waiting on it
  const waited = <T>(operation: () => Promise<T>): Promise<T> =>
    retrying(operation, { clock, totalMs: options.outageMs ?? DEFAULT_QUEUE_OUTAGE_MS });

  const poll = async () => {
    while (waiting.size > 0 && !closed) {
      await clock.sleep(options.pollMs ?? 100);
      const found = await waited(() => options.queue.outcomes(options.batch, [...waiting.keys()]));
      for (const o of found) {
        const w = waiting.get(o.key);
        if (!w) continue;
        waiting.delete(o.key);
        if (o.state === 'done') w.resolve(o.report);
        else
          w.reject(
            new RuntimeError(`the run did not complete on its worker: ${o.error}`, { code: 'regression_run_failed' }),
          );
      }
    }
  };
  const ensurePolling = () => {
    polling ??= poll()
      .catch((err: unknown) => {
        for (const w of waiting.values()) w.reject(err instanceof Error ? err : new Error(String(err)));
        waiting.clear();
      })
      .finally(() => (polling = undefined));
  };

  return {
    async runArm(request: ArmRunRequest): Promise<ScoreReport> {
      const { signal, ...queued } = request;
      if (signal?.aborted) throw new CancelledError('run interrupted');
      const key = runKey(request);
      await waited(() => options.queue.enqueue(options.batch, key, queued));
      return new Promise<ScoreReport>((resolve, reject) => {
        const onAbort = () => {
          waiting.delete(key);
          reject(new CancelledError('run interrupted'));
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        waiting.set(key, {
          resolve: (r) => {
            signal?.removeEventListener('abort', onAbort);
            resolve(r);
          },
          reject: (e) => {
            signal?.removeEventListener('abort', onAbort);
            reject(e);
          },
        });
        ensurePolling();
      });
    },
    async close() {
      closed = true;
      await waited(() => options.queue.cancel(options.batch));
    },
  };
}
