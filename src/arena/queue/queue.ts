/**
 * Runs on a queue shared by many machines (DESIGN §12). A run is one of three
 * kinds: a regress arm run, a block of trials, or one run of a shrink
 * candidate. Whoever waits for runs (regress, trials, shrink) enqueues them
 * through a QueueClient and gets each result back exactly once; `arena worker`
 * processes (./worker.ts) take them, execute them and write the results back.
 * The queue itself (PostgreSQL, FOR UPDATE SKIP LOCKED, leases fenced by the
 * take count) is in src/events/run-queue.ts.
 */
import { CancelledError, RuntimeError } from '../../shared/errors.js';
import { systemClock, type Clock } from '../../shared/clock.js';
import { retrying } from '../../shared/retry.js';
import type { QueuedArmRun, QueuedShrinkRun, QueuedTrialRound } from './requests.js';

export type RunKind = 'regress' | 'trial' | 'shrink';
export const RUN_KINDS: readonly RunKind[] = ['regress', 'trial', 'shrink'];

/** what a run on the queue carries, by kind */
export type QueuedRequest = QueuedArmRun | QueuedTrialRound | QueuedShrinkRun;

/** a request as stored: rows written before kinds existed are regress runs */
export function withKind(request: unknown): QueuedRequest {
  const r = request as { kind?: RunKind };
  return (r.kind === undefined ? { ...r, kind: 'regress' } : r) as QueuedRequest;
}

export interface ClaimedRun {
  id: string;
  /** 1 for the first take; a run taken again after its lease lapsed has a higher one */
  attempt: number;
  request: QueuedRequest;
}

/** a finished run: `result` is the executor's value as JSON (a regress run's is its ScoreReport) */
export type RunOutcome =
  | { key: string; state: 'done'; result: unknown }
  | { key: string; state: 'failed'; error: string };

/** the queue as the waiting side and the workers see it */
export interface RunQueue {
  /** idempotent per (batch, key) */
  enqueue(batch: string, key: string, request: QueuedRequest): Promise<void>;
  /** the finished runs among `keys` */
  outcomes(batch: string, keys: readonly string[]): Promise<RunOutcome[]>;
  /** runs of the batch nobody took yet are withdrawn */
  cancel(batch: string): Promise<void>;
  /** the oldest run of one of `kinds` that is queued or whose lease lapsed, leased to `worker` */
  claim(worker: string, leaseMs: number, kinds?: readonly RunKind[]): Promise<ClaimedRun | undefined>;
  /** false when the run is no longer this attempt's (its lease lapsed and someone took it) */
  renew(run: ClaimedRun, worker: string, leaseMs: number): Promise<boolean>;
  /** writes the result back; false (nothing written) when this attempt no longer holds the run */
  complete(run: ClaimedRun, result: unknown): Promise<boolean>;
  fail(run: ClaimedRun, error: string): Promise<boolean>;
  /** gives a run back unfinished (a worker stopping) */
  release(run: ClaimedRun): Promise<void>;
}

export interface QueueClientOptions {
  queue: RunQueue;
  /** names this invocation's runs */
  batch: string;
  clock?: Clock;
  /** how often finished runs are looked for (ms, default 100) */
  pollMs?: number;
  /** how long the queue's database may not answer before the runs waiting on it fail (ms, default 2 min) */
  outageMs?: number;
  /** the error code of a run its worker failed (default `queued_run_failed`) */
  failedCode?: string;
}

export const DEFAULT_QUEUE_OUTAGE_MS = 120_000;

export interface QueueClient {
  /** enqueues the run and resolves with its result once a worker wrote it; each key resolves once */
  run(key: string, request: QueuedRequest, signal?: AbortSignal): Promise<unknown>;
  /**
   * resolves once the run is on the queue, with its result to come (as `run`): runs submitted one
   * after another are taken in that order (concurrent `run`s may reach the queue in any order)
   */
  submit(key: string, request: QueuedRequest, signal?: AbortSignal): Promise<{ result: Promise<unknown> }>;
  /** withdraws the runs of the batch nobody took */
  close(): Promise<void>;
}

export function createQueueClient(options: QueueClientOptions): QueueClient {
  const clock = options.clock ?? systemClock;
  const waiting = new Map<string, { resolve(r: unknown): void; reject(e: Error): void }>();
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
        // deleted before it resolves: a key is answered once, whatever the queue reports later
        waiting.delete(o.key);
        if (o.state === 'done') w.resolve(o.result);
        else
          w.reject(
            new RuntimeError(`the run did not complete on its worker: ${o.error}`, {
              code: options.failedCode ?? 'queued_run_failed',
            }),
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

  const submit: QueueClient['submit'] = async (key, request, signal) => {
    if (signal?.aborted) throw new CancelledError('run interrupted');
    if (waiting.has(key)) throw new RangeError(`run ${key} is already waited for`);
    await waited(() => options.queue.enqueue(options.batch, key, request));
    const result = new Promise<unknown>((resolve, reject) => {
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
    return { result };
  };

  return {
    submit,
    async run(key, request, signal) {
      return (await submit(key, request, signal)).result;
    },
    async close() {
      closed = true;
      await waited(() => options.queue.cancel(options.batch));
    },
  };
}
