/**
 * A worker: takes runs from the queue, executes each with the executor of its
 * kind (a fresh target per run) and writes the result back. It takes only the
 * kinds it has an executor for. While a run executes its
 * lease is renewed; if the lease is lost anyway (this worker stalled and the run
 * was taken again) the run is abandoned and its score never written, so no run
 * is counted twice. A worker that dies simply stops renewing: its run is taken
 * again once the lease lapses. A queue database that stops answering (a
 * restart) is waited for with backoff: the worker keeps going when it returns.
 */
import { systemClock, type Clock } from '../../shared/clock.js';
import { errorMessage } from '../../shared/errors.js';
import { retrying } from '../../shared/retry.js';
import type { RegressionArena } from '../regression/types.js';
import type { ScoreReport } from '../report.js';
import type { ClaimedRun, QueuedRequest, RunKind, RunQueue } from './queue.js';

/** executes one run of its kind; the value is written back as JSON */
export type RunExecutors = {
  [K in RunKind]?: (request: Extract<QueuedRequest, { kind: K }>, signal: AbortSignal) => Promise<unknown>;
};

export interface WorkerOptions {
  queue: RunQueue;
  /** executes regress runs (shorthand for `executors.regress`) */
  arena?: RegressionArena;
  /** executes the other kinds; a kind with no executor is left for other workers */
  executors?: RunExecutors;
  /** names this worker in the queue (host:pid) */
  name: string;
  /** runs executing at once (default 1) */
  concurrency?: number;
  /** how long a taken run stays this worker's without a renewal (ms, default 30 s) */
  leaseMs?: number;
  /** how long an idle slot waits before looking again (ms, default 250) */
  idleMs?: number;
  clock?: Clock;
  /** stops taking runs; running ones are given back to the queue */
  signal?: AbortSignal;
  onEvent?: (event: WorkerEvent) => void;
}

export type WorkerEvent =
  | { type: 'took'; run: ClaimedRun }
  /** `score`: a regress run's */
  | { type: 'done'; run: ClaimedRun; score?: number; written: boolean }
  | { type: 'failed'; run: ClaimedRun; error: string }
  | { type: 'lost'; run: ClaimedRun }
  | { type: 'released'; run: ClaimedRun }
  /** the queue's database does not answer: the worker keeps trying (once per outage) */
  | { type: 'waiting'; error: string }
  | { type: 'reconnected' };

export async function runWorker(options: WorkerOptions): Promise<{ completed: number }> {
  const clock = options.clock ?? systemClock;
  const leaseMs = options.leaseMs ?? 30_000;
  const idleMs = options.idleMs ?? 250;
  const emit = options.onEvent ?? (() => undefined);
  let completed = 0;
  const executors: RunExecutors = {
    ...(options.arena
      ? { regress: ({ kind: _, ...request }, signal) => options.arena!.runArm({ ...request, signal }) }
      : {}),
    ...options.executors,
  };
  const kinds = (Object.keys(executors) as RunKind[]).filter((k) => executors[k] !== undefined);
  if (kinds.length === 0) throw new RangeError('runWorker needs an executor for at least one kind of run');
  const executeRequest = (request: QueuedRequest, signal: AbortSignal): Promise<unknown> => {
    const executor = executors[request.kind] as ((r: QueuedRequest, s: AbortSignal) => Promise<unknown>) | undefined;
    // claim takes only `kinds`: a run of another kind here is a queue that ignored the filter
    if (!executor) throw new Error(`this worker does not execute ${request.kind} runs`);
    return executor(request, signal);
  };
  // a database that goes away (a restart) is waited for, with backoff, instead of ending the worker
  let waiting = false;
  const waited = <T>(operation: () => Promise<T>, totalMs: number): Promise<T> =>
    retrying(operation, {
      clock,
      totalMs,
      ...(options.signal ? { signal: options.signal } : {}),
      onRetry: (err) => {
        if (!waiting) emit({ type: 'waiting', error: errorMessage(err) });
        waiting = true;
      },
    }).then((value) => {
      if (waiting) emit({ type: 'reconnected' });
      waiting = false;
      return value;
    });

  const execute = async (run: ClaimedRun) => {
    // a take answered after the stop: an abort listener added now would never fire, so give the run back unstarted
    if (options.signal?.aborted) {
      await options.queue.release(run).catch(() => undefined);
      return emit({ type: 'released', run });
    }
    const ac = new AbortController();
    const stop = () => ac.abort();
    options.signal?.addEventListener('abort', stop, { once: true });
    let lost = false;
    // renew at a third of the lease: two renewals may be slow before it lapses
    const renew = async (): Promise<void> => {
      while (!ac.signal.aborted) {
        await clock.sleep(leaseMs / 3, ac.signal).catch(() => undefined);
        if (ac.signal.aborted) return;
        const held = await options.queue.renew(run, options.name, leaseMs).catch(() => true);
        if (!held) {
          lost = true;
          ac.abort();
        }
      }
    };
    const renewing = renew();
    try {
      const result = await executeRequest(run.request, ac.signal);
      if (lost) return emit({ type: 'lost', run });
      // an executor may return what it did before the stop (a block's first trials): that is no result
      if (options.signal?.aborted) {
        await options.queue.release(run).catch(() => undefined);
        return emit({ type: 'released', run });
      }
      // within the lease: past it the run is another worker's to take, and this result is not written
      const written = await waited(() => options.queue.complete(run, result), leaseMs).catch(() => false);
      if (written) completed++;
      const score = run.request.kind === 'regress' ? ((result as ScoreReport).score ?? Number.NaN) : undefined;
      emit({ type: 'done', run, ...(score !== undefined ? { score } : {}), written });
    } catch (err) {
      if (lost) return emit({ type: 'lost', run });
      if (options.signal?.aborted) {
        await options.queue.release(run).catch(() => undefined);
        return emit({ type: 'released', run });
      }
      await waited(() => options.queue.fail(run, errorMessage(err)), leaseMs).catch(() => false);
      emit({ type: 'failed', run, error: errorMessage(err) });
    } finally {
      ac.abort();
      options.signal?.removeEventListener('abort', stop);
      await renewing;
    }
  };

  const slot = async () => {
    while (!options.signal?.aborted) {
      let run: ClaimedRun | undefined;
      try {
        run = await waited(() => options.queue.claim(options.name, leaseMs, kinds), Number.POSITIVE_INFINITY);
      } catch (err) {
        if (options.signal?.aborted) break;
        throw err;
      }
      if (!run) {
        await clock.sleep(idleMs, options.signal).catch(() => undefined);
        continue;
      }
      emit({ type: 'took', run });
      await execute(run);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 1) }, slot));
  return { completed };
}
