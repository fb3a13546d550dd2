/**
 * The event store the arena appends to. Streams are versioned: the first
 * event of a stream is version 1, and an append names the version it expects
 * the stream to be at (optimistic concurrency). src/events holds the
 * implementations (memory here, a durable one elsewhere).
 */

/** Pass as expectedVersion to append whatever the stream's version is. */
export const ANY_VERSION = -1;

export interface NewEvent {
  type: string;
  data: unknown;
}

export interface StoredEvent {
  stream_id: string;
  /** 1-based position within its stream */
  version: number;
  type: string;
  data: unknown;
  /** ISO timestamp of the append */
  at: string;
}

export interface EventFilter {
  /** only this stream; all streams when absent */
  stream_id?: string;
  /** only these event types */
  types?: readonly string[];
}

export interface SubscribeOptions {
  /** ends the iteration */
  signal?: AbortSignal;
}

export interface EventStore {
  /**
   * Appends atomically. Throws ConflictError, appending nothing, when the
   * stream is not at `expectedVersion` (0 for a new stream, ANY_VERSION to skip the check).
   */
  append(streamId: string, events: readonly NewEvent[], expectedVersion: number): Promise<StoredEvent[]>;
  /** 0 when the stream has no events */
  streamVersion(streamId: string): Promise<number>;
  /** events with version > fromVersion (default 0: all) */
  read(streamId: string, fromVersion?: number): Promise<StoredEvent[]>;
  /**
   * Replays stored events matching the filter (per-stream version > fromVersion;
   * no replay when fromVersion is undefined), then follows new ones live.
   */
  subscribe(filter: EventFilter, fromVersion?: number, options?: SubscribeOptions): AsyncIterable<StoredEvent>;
}

export function matchesFilter(event: StoredEvent, filter: EventFilter): boolean {
  if (filter.stream_id !== undefined && event.stream_id !== filter.stream_id) return false;
  if (filter.types && !filter.types.includes(event.type)) return false;
  return true;
}
