/** An in-memory EventStore: streams in arrays, live subscribers fed on append. */
import { ConflictError, UsageError } from '../shared/errors.js';
import { isoAt } from '../shared/iso-time.js';
import { createAsyncQueue, type AsyncQueue } from '../shared/async-queue.js';
import {
  ANY_VERSION,
  matchesFilter,
  matchesQuery,
  type EventQuery,
  type QueryableEventStore,
  type EventFilter,
  type NewEvent,
  type StoredEvent,
  type SubscribeOptions,
} from '../arena/event-store.js';

export interface MemoryEventStoreOptions {
  /** timestamps for appended events; defaults to the wall clock */
  now?: () => Date;
}

interface Subscriber {
  filter: EventFilter;
  queue: AsyncQueue<StoredEvent>;
}

export class MemoryEventStore implements QueryableEventStore {
  private streams = new Map<string, StoredEvent[]>();
  private subscribers = new Set<Subscriber>();
  private readonly nowMs: () => number;

  constructor(options: MemoryEventStoreOptions = {}) {
    const { now } = options;
    this.nowMs = now ? () => now().getTime() : Date.now;
  }

  /** a bad call or a version conflict is a rejected promise, never a throw */
  async append(streamId: string, events: readonly NewEvent[], expectedVersion: number): Promise<StoredEvent[]> {
    return this.appendSync(streamId, events, expectedVersion);
  }

  /** `append`, done before it returns; throws where `append` rejects */
  appendSync(streamId: string, events: readonly NewEvent[], expectedVersion: number): StoredEvent[] {
    if (typeof streamId !== 'string' || streamId === '') throw new UsageError('stream id must be a non-empty string');
    let stream = this.streams.get(streamId);
    if (!stream) {
      stream = [];
      this.streams.set(streamId, stream);
    }
    const current = stream.length;
    if (expectedVersion !== ANY_VERSION && expectedVersion !== current) {
      throw new ConflictError(`stream "${streamId}" is at version ${current}, expected ${expectedVersion}`, {
        code: 'version_conflict',
        details: { stream_id: streamId, expected: expectedVersion, actual: current },
      });
    }
    const at = isoAt(this.nowMs());
    // sized up front: an empty array's first push reserves room for 17
    const stored = new Array<StoredEvent>(events.length);
    // the version check and the push happen in one synchronous step: nothing can interleave
    for (let i = 0; i < events.length; i++) {
      const e = events[i]!;
      const event: StoredEvent = { stream_id: streamId, version: current + i + 1, type: e.type, data: e.data, at };
      stored[i] = event;
      stream.push(event);
    }
    for (const sub of this.subscribers) {
      for (const e of stored) if (matchesFilter(e, sub.filter)) sub.queue.push(e);
    }
    return stored;
  }

  async streamVersion(streamId: string): Promise<number> {
    return this.streams.get(streamId)?.length ?? 0;
  }

  async read(streamId: string, fromVersion = 0): Promise<StoredEvent[]> {
    return (this.streams.get(streamId) ?? []).filter((e) => e.version > fromVersion);
  }

  async queryEvents(query: EventQuery): Promise<StoredEvent[]> {
    const found = (this.streams.get(query.stream_id) ?? []).filter((e) => matchesQuery(e, query));
    return query.last !== undefined ? found.slice(-query.last) : found;
  }

  /** stream ids, for diagnostics */
  streamIds(): string[] {
    return [...this.streams.keys()];
  }

  subscribe(filter: EventFilter, fromVersion?: number, options: SubscribeOptions = {}): AsyncIterable<StoredEvent> {
    const sub: Subscriber = { filter, queue: undefined as unknown as AsyncQueue<StoredEvent> };
    sub.queue = createAsyncQueue<StoredEvent>(() => this.subscribers.delete(sub), options.signal);
    // replay synchronously before registering, so no event is missed or doubled
    if (fromVersion !== undefined) {
      const streams = filter.stream_id !== undefined ? [filter.stream_id] : [...this.streams.keys()];
      for (const id of streams) {
        for (const e of this.streams.get(id) ?? []) {
          if (e.version > fromVersion && matchesFilter(e, filter)) sub.queue.push(e);
        }
      }
    }
    if (!sub.queue.closed) this.subscribers.add(sub);
    return sub.queue;
  }
}
