/**
 * GET /arena/stream: arena events as SSE. Ids are the event store's versions
 * of the arena stream, so a client that reconnects with Last-Event-ID gets
 * exactly what it missed. When that id cannot be honoured (older than what is
 * kept for replay, or from another store), the client is told so with an
 * explicit `reset` event before the stream goes on.
 */
import { UsageError } from '../shared/errors.js';
import type { EventStore, StoredEvent } from '../arena/event-store.js';
import type { RequestContext } from './context.js';
import { encodeFrame } from './sse.js';

export interface ArenaStreamOptions {
  /** at most this many missed events are replayed; older ids get a `reset` */
  replayLimit?: number;
}

export const DEFAULT_REPLAY_LIMIT = 10_000;

function parseLastEventId(ctx: RequestContext): number | undefined {
  const header = ctx.req.headers['last-event-id'];
  const raw = (Array.isArray(header) ? header[0] : header) ?? ctx.query.get('last_event_id') ?? undefined;
  if (raw === undefined || raw.trim() === '') return undefined;
  if (!/^\d+$/.test(raw.trim())) throw new UsageError(`Last-Event-ID must be a non-negative integer, got "${raw}"`, 'invalid_last_event_id');
  return Number(raw.trim());
}

export function eventFrameData(e: StoredEvent): Record<string, unknown> {
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

export async function serveArenaStream(ctx: RequestContext, store: EventStore, streamId: string, options: ArenaStreamOptions = {}): Promise<void> {
  const lastId = parseLastEventId(ctx);
  const replayLimit = options.replayLimit ?? DEFAULT_REPLAY_LIMIT;
  const signal = ctx.signal;
  const stream = ctx.sse();
  const current = await store.streamVersion(streamId);
  let from = current;
  let reset: Record<string, unknown> | undefined;
  if (lastId !== undefined) {
    if (lastId > current) {
      reset = { reason: 'unknown_last_event_id', last_event_id: lastId, current_id: current, detail: 'the id is ahead of this stream (another server or a reset store); streaming new events only' };
    } else if (current - lastId > replayLimit) {
      from = current - replayLimit;
      reset = { reason: 'last_event_id_too_old', last_event_id: lastId, current_id: current, replay_from: from + 1, detail: `only the last ${replayLimit} events are replayed; events up to ${from} were missed` };
    } else from = lastId;
  }
  // no id: live only, but anything appended since the version was read is still delivered
  stream.send({ event: 'ready', data: { stream: streamId, current_id: current, resumed_from: lastId ?? null } });
  if (reset) stream.send({ event: 'reset', data: reset });
  let expected = from + 1;
  for await (const e of store.subscribe({ stream_id: streamId }, from, { signal })) {
    if (stream.closed) break;
    if (e.version > expected && !reset) {
      // the store no longer holds what the client missed
      stream.send({ event: 'reset', data: { reason: 'last_event_id_too_old', last_event_id: from, current_id: e.version, replay_from: e.version, detail: 'events in between are no longer stored' } });
      reset = {};
    }
    expected = e.version + 1;
    stream.sendEncoded(encodedEvent(e));
  }
}
