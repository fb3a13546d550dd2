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
import { retrying } from '../shared/retry.js';
import { ANY_VERSION, type EventStore, type NewEvent, type StoredEvent } from './event-store.js';

/** how long an append keeps trying a store that does not answer (a PostgreSQL restart takes a few seconds) */
export const DEFAULT_APPEND_RETRY_MS = 15_000;

export async function appendWithRetry(
  store: EventStore,
  streamId: string,
  event: NewEvent,
  retry: { clock: Clock; totalMs: number },
): Promise<StoredEvent> {
  const [stored] = await retrying(() => store.append(streamId, [event], ANY_VERSION), retry);
  return stored!;
}
