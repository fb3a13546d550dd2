/**
 * One event-store subscription per stream, shared by every SSE client of that
 * stream: each event is encoded once and written to every client in one pass,
 * rather than waking one store subscription per client. Each client keeps its
 * own backpressure (its SseStream queues while its response waits for `drain`
 * and is dropped past the cap), so a slow client neither holds the others back
 * nor loses or reorders frames.
 *
 * A client that resumes from an older id first catches up from the store while
 * the live events meant for it are held, then goes live; versions say what it
 * already has, so nothing is sent twice or skipped.
 */
import type { EventStore, StoredEvent } from '../arena/event-store.js';
import { encodeFrame, type SseStream } from './sse.js';

function eventFrameData(e: StoredEvent): Record<string, unknown> {
  return { id: e.version, type: e.type, at: e.at, data: e.data };
}

// Every subscriber receives the same StoredEvent object from the store: its frame is
// serialised once and shared. Weak, so the cache lives exactly as long as the event.
const encodedFrames = new WeakMap<StoredEvent, Buffer>();

function encodedEvent(e: StoredEvent): Buffer {
  let frame = encodedFrames.get(e);
  if (!frame) {
    frame = encodeFrame({ event: e.type, id: e.version, data: eventFrameData(e) });
    encodedFrames.set(e, frame);
  }
  return frame;
}

export interface FanoutClient {
  stream: SseStream;
  /** the version the client resumed after; named in a later `reset` */
  from: number;
  /** the next version it expects: anything below was sent already */
  next: number;
  /** whether it was told about a gap already (once is enough) */
  isReset: boolean;
  /** live events held while it catches up from the store; undefined once live */
  held?: StoredEvent[];
  /** the store failed: the client's request ends with this error */
  fail(err: unknown): void;
}

/** Sends the client what it does not have yet, in order, telling it once when versions jump. */
export function deliver(client: FanoutClient, events: readonly StoredEvent[], batch?: Buffer): void {
  if (client.held) {
    client.held.push(...events);
    return;
  }
  // the usual case: the client is exactly where the batch starts, so the shared Buffer goes as is
  if (batch && events[0]?.version === client.next) {
    client.stream.sendEncoded(batch);
    client.next = events[events.length - 1]!.version + 1;
    return;
  }
  for (const e of events) {
    if (e.version < client.next) continue;
    if (e.version > client.next && !client.isReset) {
      // the store no longer holds what the client missed
      client.stream.send({
        event: 'reset',
        data: {
          reason: 'last_event_id_too_old',
          last_event_id: client.from,
          current_id: e.version,
          replay_from: e.version,
          detail: 'events in between are no longer stored',
        },
      });
      client.isReset = true;
    }
    client.stream.sendEncoded(encodedEvent(e));
    client.next = e.version + 1;
  }
}

class StreamFanout {
  private readonly clients = new Set<FanoutClient>();
  private readonly controller = new AbortController();
  private isEnded = false;
  /** the last version received from the store */
  lastVersion = 0;
  /** resolves once the subscription is open: every event after `lastVersion` then reaches the clients */
  readonly started: Promise<void>;

  constructor(
    private readonly store: EventStore,
    private readonly streamId: string,
    private readonly onEnd: () => void,
  ) {
    this.started = this.store.streamVersion(streamId).then((version) => {
      this.lastVersion = version;
      void this.follow(version);
    });
    // a store that cannot even say its version ends the fan-out, and with it its clients
    this.started.catch((err: unknown) => this.end(err));
  }

  add(client: FanoutClient): void {
    this.clients.add(client);
    client.stream.onClose(() => {
      this.clients.delete(client);
      // the last one out closes the store subscription
      if (this.clients.size === 0) this.end();
    });
  }

  private async follow(from: number): Promise<void> {
    try {
      for await (const e of this.store.subscribe({ stream_id: this.streamId }, from, {
        signal: this.controller.signal,
      })) {
        this.lastVersion = e.version;
        // written at once: a shutdown right after the last append must find it sent
        const frame = encodedEvent(e);
        for (const client of this.clients) deliver(client, [e], frame);
      }
      this.end();
    } catch (err) {
      this.end(err);
    }
  }

  private end(err?: unknown): void {
    if (this.isEnded) return;
    this.isEnded = true;
    this.onEnd();
    this.controller.abort();
    // the store failed: every client ends, and reconnects with its Last-Event-ID
    if (err !== undefined) for (const client of [...this.clients]) client.fail(err);
  }
}

const fanouts = new WeakMap<EventStore, Map<string, StreamFanout>>();

/** the shared fan-out of a store's stream, opened on first use and closed when its last client leaves */
export function fanoutFor(store: EventStore, streamId: string): StreamFanout {
  let byStream = fanouts.get(store);
  if (!byStream) {
    byStream = new Map();
    fanouts.set(store, byStream);
  }
  let fanout = byStream.get(streamId);
  if (!fanout) {
    const created: StreamFanout = new StreamFanout(store, streamId, () => {
      if (byStream.get(streamId) === created) byStream.delete(streamId);
    });
    fanout = created;
    byStream.set(streamId, fanout);
  }
  return fanout;
}
