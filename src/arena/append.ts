/**
 * Records one event in a store, for ArenaService. The store assigns the next
 * version atomically (ANY_VERSION: a stream lock in PostgreSQL, a transaction
 * in SQLite, one synchronous step in memory), so any number of writers on one
 * stream never conflict and its versions stay contiguous. A store that does
 * not answer (down, restarting, a dropped connection) is tried again with
 * jittered, growing pauses for up to `totalMs`; then the error goes to the
 * caller, who must say so. Bad input and a closed store are not retried.
 */
import type { Clock } from '../shared/clock.js';
import { isArenaError } from '../shared/errors.js';
import { ANY_VERSION, type EventStore, type NewEvent, type StoredEvent } from './event-store.js';

/** how long an append keeps trying a store that does not answer (a PostgreSQL restart takes a few seconds) */
export const DEFAULT_APPEND_RETRY_MS = 15_000;
const FIRST_PAUSE_MS = 50;
const MAX_PAUSE_MS = 2_000;

export interface AppendRetry {
  clock: Clock;
  /** give up after this long (ms) */
  totalMs: number;
  /** 0 ≤ x < 1; spreads the writers that failed together (default Math.random: not part of any replay) */
  jitter?: () => number;
}

export async function appendWithRetry(
  store: EventStore,
  streamId: string,
  event: NewEvent,
  retry: AppendRetry,
): Promise<StoredEvent> {
  const { clock, totalMs, jitter = Math.random } = retry;
  const deadline = clock.now() + totalMs;
  for (let pause = FIRST_PAUSE_MS; ; pause = Math.min(MAX_PAUSE_MS, pause * 2)) {
    try {
      const [stored] = await store.append(streamId, [event], ANY_VERSION);
      return stored!;
    } catch (err) {
      const left = deadline - clock.now();
      if (!retryable(err) || left <= 0) throw err;
      // half the step plus a random half: writers that failed together do not come back together
      await clock.sleep(Math.min(left, pause * (0.5 + jitter() / 2)));
    }
  }
}

/** bad input (exit 2) and a closed store will fail the same way again; anything else may pass on a later try */
function retryable(err: unknown): boolean {
  if (!isArenaError(err)) return true;
  return err.exitCode !== 2 && err.code !== 'store_closed';
}
