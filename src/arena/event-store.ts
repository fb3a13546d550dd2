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

/** one condition on a top-level field of the event data: any of `fields` equals `equals` */
export interface DataCondition {
  fields: readonly string[];
  equals: string | boolean;
  /** also true when none of the fields is present */
  orMissing?: boolean;
}

/**
 * A query over one stream whose events carry records (the flight recorder's):
 * stores that can answer it in their database (SQL, indexed) implement
 * `queryEvents`; readers fall back to filtering the whole stream otherwise.
 */
export interface EventQuery {
  stream_id: string;
  types?: readonly string[];
  /** every condition holds */
  where?: readonly DataCondition[];
  /** the data's `at` (ISO timestamp) is at or after this ISO time */
  since?: string;
  /** the data's `at` is at or before this ISO time */
  until?: string;
  /** only the most recent N matches (still oldest first) */
  last?: number;
}

export interface QueryableEventStore extends EventStore {
  queryEvents(query: EventQuery): Promise<StoredEvent[]>;
}

export function isQueryable(store: EventStore): store is QueryableEventStore {
  return typeof (store as Partial<QueryableEventStore>).queryEvents === 'function';
}

/** data field names a store may put into SQL: plain identifiers only */
export function assertFieldName(field: string): void {
  if (!/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(field))
    throw new TypeError(`invalid data field name ${JSON.stringify(field)}`);
}

/** the same query evaluated in memory: what every store's SQL must agree with */
export function matchesQuery(event: StoredEvent, query: EventQuery): boolean {
  if (event.stream_id !== query.stream_id) return false;
  if (query.types && !query.types.includes(event.type)) return false;
  const data = (event.data ?? {}) as Record<string, unknown>;
  if (typeof data !== 'object') return false;
  for (const c of query.where ?? []) {
    const present = c.fields.filter((f) => data[f] !== undefined && data[f] !== null);
    if (present.length === 0) {
      if (!c.orMissing) return false;
      continue;
    }
    if (!present.some((f) => data[f] === c.equals)) return false;
  }
  if (query.since !== undefined || query.until !== undefined) {
    const at = data.at;
    if (typeof at !== 'string') return false;
    if (query.since !== undefined && at < query.since) return false;
    if (query.until !== undefined && at > query.until) return false;
  }
  return true;
}
