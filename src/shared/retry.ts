/**
 * Tries an operation again while it fails with an error that may pass (a
 * database restarting, a dropped connection), with growing, jittered pauses,
 * for up to `totalMs`; then the last error goes to the caller. Bad input
 * (exit 2) and anything `retryable` refuses are thrown at once.
 */
import type { Clock } from './clock.js';
import { isArenaError } from './errors.js';

const FIRST_PAUSE_MS = 50;
const MAX_PAUSE_MS = 2_000;

export interface RetryOptions {
  clock: Clock;
  /** give up after this long (ms); Infinity keeps trying until the signal aborts */
  totalMs: number;
  signal?: AbortSignal;
  /** which errors may pass on a later try (default: all but bad input and a closed store) */
  retryable?: (err: unknown) => boolean;
  /** told before each pause (a worker says it is waiting for its database) */
  onRetry?: (err: unknown) => void;
  /** 0 ≤ x < 1; spreads callers that failed together (default Math.random: not part of any replay) */
  jitter?: () => number;
}

export async function retrying<T>(operation: () => Promise<T>, options: RetryOptions): Promise<T> {
  const { clock, totalMs, signal, retryable = mayPass, onRetry, jitter = Math.random } = options;
  const deadline = clock.now() + totalMs;
  for (let pause = FIRST_PAUSE_MS; ; pause = Math.min(MAX_PAUSE_MS, pause * 2)) {
    try {
      return await operation();
    } catch (err) {
      const left = deadline - clock.now();
      if (!retryable(err) || left <= 0 || signal?.aborted) throw err;
      onRetry?.(err);
      // half the step plus a random half: callers that failed together do not come back together
      await clock.sleep(Math.min(left, pause * (0.5 + jitter() / 2)), signal).catch(() => undefined);
      if (signal?.aborted) throw err;
    }
  }
}

/** bad input (exit 2) and a closed store fail the same way again; anything else may pass on a later try */
export function mayPass(err: unknown): boolean {
  if (!isArenaError(err)) return true;
  return err.exitCode !== 2 && err.code !== 'store_closed';
}
