/**
 * The console's fetch-based event stream, against a fake fetch: frames are
 * parsed across chunk boundaries, a reconnect sends Last-Event-ID and skips
 * anything already delivered, a 401 stops it, and the key goes in a header.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FrameParser, openEventStream, type StreamEvent, type StreamStatus } from '../../../src/web/event-stream.js';

describe('FrameParser', () => {
  it('joins a frame split across chunks and skips comments', () => {
    const p = new FrameParser();
    expect(p.push('retry: 3000\n\n: heartbeat\n\nevent: a\nid: 1\nda')).toEqual([]);
    expect(p.push('ta: {"x":1}\n\nevent: b\r\nid: 2\r\ndata: line1\r\ndata: line2\r\n\r\n')).toEqual([
      { event: 'a', id: '1', data: '{"x":1}' },
      { event: 'b', id: '2', data: 'line1\nline2' },
    ]);
  });
});

/** a fetch whose every call answers with the next scripted body, then hangs */
function scriptedFetch(bodies: Array<{ status?: number; chunks: string[]; thenFail?: boolean }>) {
  const calls: Array<{ url: string; headers: Record<string, string> }> = [];
  const fetchImpl = vi.fn(async (url: string, init: RequestInit) => {
    calls.push({ url, headers: { ...(init.headers as Record<string, string>) } });
    const script = bodies.shift();
    // nothing scripted: a connection that never answers, until it is aborted (as fetch does)
    if (!script)
      return new Promise<Response>((_, reject) =>
        init.signal?.addEventListener('abort', () => reject(new Error('aborted'))),
      );
    const chunks = [...script.chunks];
    // one chunk per read, then the end or a reset (an error would discard chunks still queued)
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = chunks.shift();
        if (next !== undefined) controller.enqueue(new TextEncoder().encode(next));
        else if (script.thenFail) controller.error(new Error('connection reset'));
        else controller.close();
      },
    });
    return new Response(body, { status: script.status ?? 200 });
  });
  return { fetchImpl: fetchImpl as unknown as typeof fetch, calls };
}

const frame = (id: number, type = 'arena.action.executed') => `event: ${type}\nid: ${id}\ndata: {"id":${id}}\n\n`;

describe('openEventStream', () => {
  afterEach(() => vi.useRealTimers());

  it('resumes after a lost connection from the last id, with no gap and no duplicate', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { fetchImpl, calls } = scriptedFetch([
      { chunks: ['event: ready\ndata: {"current_id":0}\n\n', frame(1), frame(2)], thenFail: true },
      // a server that replays one event too many must not make the timeline show it twice
      { chunks: [frame(2), frame(3), frame(4)] },
    ]);
    const events: StreamEvent[] = [];
    const statuses: StreamStatus[] = [];
    const notices: string[] = [];
    const handle = openEventStream({
      path: '/arena/stream',
      key: 'k1',
      fetchImpl,
      onEvent: (e) => events.push(e),
      onStatus: (s) => statuses.push(s),
      onNotice: (n) => notices.push(n.event),
    });
    await vi.advanceTimersByTimeAsync(10);
    expect(events.map((e) => e.id)).toEqual([1, 2]);
    expect(statuses).toEqual(['connecting', 'live', 'reconnecting']);
    await vi.advanceTimersByTimeAsync(600);
    expect(events.map((e) => e.id)).toEqual([1, 2, 3, 4]);
    expect(calls.map((c) => c.headers['Last-Event-ID'])).toEqual(['0', '2']);
    // the server ended the second stream: the next attempt resumes after 4
    await vi.advanceTimersByTimeAsync(1000);
    expect(calls.map((c) => c.headers['Last-Event-ID'])).toEqual(['0', '2', '4']);
    expect(calls.every((c) => c.headers['X-API-Key'] === 'k1' && !c.url.includes('k1'))).toBe(true);
    expect(notices).toEqual(['ready']);
    expect(handle.lastId).toBe(4);
    handle.close();
  });

  it('stops on 401 instead of retrying a refused key', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { fetchImpl, calls } = scriptedFetch([{ status: 401, chunks: ['{"error":"missing or invalid API key"}'] }]);
    const statuses: StreamStatus[] = [];
    openEventStream({
      path: '/arena/stream',
      key: 'bad',
      fetchImpl,
      onEvent: () => undefined,
      onStatus: (s) => statuses.push(s),
    });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(statuses).toEqual(['connecting', 'unauthorized']);
    expect(calls).toHaveLength(1);
  });

  it('treats a silent connection as dead and reconnects', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { fetchImpl, calls } = scriptedFetch([]);
    const statuses: StreamStatus[] = [];
    const handle = openEventStream({
      path: '/s',
      key: '',
      fetchImpl,
      silenceMs: 1000,
      onEvent: () => undefined,
      onStatus: (s) => statuses.push(s),
    });
    await vi.advanceTimersByTimeAsync(1100);
    expect(statuses).toContain('reconnecting');
    await vi.advanceTimersByTimeAsync(1000);
    expect(calls.length).toBeGreaterThanOrEqual(2);
    // no key: no header
    expect(calls[0]!.headers['X-API-Key']).toBeUndefined();
    handle.close();
  });
});
