/**
 * GET /arena/stream: arena events as SSE. Ids are the event store's versions
 * of the arena stream, so a client that reconnects with Last-Event-ID gets
 * exactly what it missed. When that id cannot be honoured (older than what is
 * kept for replay, or from another store), the client is told so with an
 * explicit `reset` event before the stream goes on.
 */
import { UsageError } from '../shared/errors.js';
import type { EventStore } from '../arena/event-store.js';
import type { RequestContext } from './context.js';
import { deliver, fanoutFor, type FanoutClient } from './arena-fanout.js';

export interface ArenaStreamOptions {
  /** at most this many missed events are replayed; older ids get a `reset` */
  replayLimit?: number;
}

export const DEFAULT_REPLAY_LIMIT = 10_000;

function parseLastEventId(ctx: RequestContext): number | undefined {
  const header = ctx.req.headers['last-event-id'];
  const raw = (Array.isArray(header) ? header[0] : header) ?? ctx.query.get('last_event_id') ?? undefined;
  if (raw === undefined || raw.trim() === '') return undefined;
  if (!/^\d+$/.test(raw.trim()))
    throw new UsageError(`Last-Event-ID must be a non-negative integer, got "${raw}"`, {
      code: 'invalid_last_event_id',
    });
  return Number(raw.trim());
}

export async function serveArenaStream(
  ctx: RequestContext,
  store: EventStore,
  streamId: string,
  options: ArenaStreamOptions = {},
): Promise<void> {
  const lastId = parseLastEventId(ctx);
  const replayLimit = options.replayLimit ?? DEFAULT_REPLAY_LIMIT;
  const stream = ctx.sse();
  const current = await store.streamVersion(streamId);
  let from = current;
  let reset: Record<string, unknown> | undefined;
  if (lastId !== undefined) {
    if (lastId > current) {
      reset = {
        reason: 'unknown_last_event_id',
        last_event_id: lastId,
        current_id: current,
        detail: 'the id is ahead of this stream (another server or a reset store); streaming new events only',
      };
    } else if (current - lastId > replayLimit) {
      from = current - replayLimit;
      reset = {
        reason: 'last_event_id_too_old',
        last_event_id: lastId,
        current_id: current,
        replay_from: from + 1,
        detail: `only the last ${replayLimit} events are replayed; events up to ${from} were missed`,
      };
    } else from = lastId;
  }
  // no id: live only, but anything appended since the version was read is still delivered
  stream.send({ event: 'ready', data: { stream: streamId, current_id: current, resumed_from: lastId ?? null } });
  if (reset) stream.send({ event: 'reset', data: reset });
  const fanout = fanoutFor(store, streamId);
  await new Promise<void>((resolve, reject) => {
    const client: FanoutClient = { stream, from, next: from + 1, isReset: reset !== undefined, held: [], fail: reject };
    // the request lasts as long as the stream: it ends when the client leaves or the server shuts down
    stream.onClose(resolve);
    if (stream.closed) return;
    // registered before reading the store: whatever is appended from now on reaches it live (held for now)
    fanout.add(client);
    void catchUp(client, store, streamId, fanout.started, () => fanout.lastVersion).catch(reject);
  });
}

/** sends what the client missed from the store, then what was held meanwhile, then lets it go live */
async function catchUp(
  client: FanoutClient,
  store: EventStore,
  streamId: string,
  started: Promise<void>,
  lastVersion: () => number,
): Promise<void> {
  await started;
  // anything after the fan-out's last version reaches the client live; before it, only the store has it
  const missed = client.from < lastVersion() ? await store.read(streamId, client.from) : [];
  const held = client.held ?? [];
  client.held = undefined;
  deliver(client, missed);
  deliver(client, held);
}
