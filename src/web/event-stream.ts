/**
 * The arena event stream read with fetch instead of EventSource, because
 * EventSource cannot send a header: the key would have to go in the URL (and
 * so into logs). On a lost connection it reconnects with `Last-Event-ID`
 * set to the last id it delivered, and it drops any id it has already
 * delivered, so a resumed timeline has no gap and no duplicate.
 */
export interface StreamEvent {
  id: number;
  event: string;
  data: unknown;
}

/** frames without an id: `ready`, `reset` (events were missed), `shutdown` */
export interface StreamNotice {
  event: string;
  data: unknown;
}

export type StreamStatus = 'connecting' | 'live' | 'reconnecting' | 'unauthorized';

export interface EventStreamOptions {
  path: string;
  key: string;
  onEvent(e: StreamEvent): void;
  onNotice?(n: StreamNotice): void;
  onStatus(s: StreamStatus): void;
  /** the first connection replays from here (0 = everything the server keeps) */
  startAfter?: number;
  /** no byte for this long (heartbeats come every 15 s) means the connection is dead */
  silenceMs?: number;
  fetchImpl?: typeof fetch;
}

export interface EventStreamHandle {
  close(): void;
  /** the last id delivered */
  readonly lastId: number;
}

interface Frame {
  event: string;
  id: string | undefined;
  data: string;
}

/** Splits a text/event-stream body into frames; feed it chunks, it keeps the partial tail. */
export class FrameParser {
  private buffer = '';

  push(chunk: string): Frame[] {
    this.buffer += chunk.replace(/\r\n?/g, '\n');
    const frames: Frame[] = [];
    let end: number;
    while ((end = this.buffer.indexOf('\n\n')) !== -1) {
      const block = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 2);
      let event = 'message';
      let id: string | undefined;
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line === '' || line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon === -1 ? line : line.slice(0, colon);
        const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'event') event = value;
        else if (field === 'id') id = value;
        else if (field === 'data') data.push(value);
      }
      if (data.length > 0) frames.push({ event, id, data: data.join('\n') });
    }
    return frames;
  }
}

function parseData(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export function openEventStream(options: EventStreamOptions): EventStreamHandle {
  const fetchImpl = options.fetchImpl ?? fetch;
  const silenceMs = options.silenceMs ?? 35_000;
  let lastId = options.startAfter ?? 0;
  let closed = false;
  let controller: AbortController | undefined;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let failures = 0;

  const scheduleReconnect = () => {
    if (closed) return;
    options.onStatus('reconnecting');
    // 0.5 s, 1 s, 2 s … at most 5 s between attempts
    const delay = Math.min(5000, 500 * 2 ** Math.min(failures, 4));
    failures += 1;
    retryTimer = setTimeout(connect, delay);
  };

  async function connect(): Promise<void> {
    if (closed) return;
    const attempt = (controller = new AbortController());
    let watchdog: ReturnType<typeof setTimeout> | undefined;
    const feedWatchdog = () => {
      clearTimeout(watchdog);
      watchdog = setTimeout(() => attempt.abort(), silenceMs);
    };
    try {
      const headers: Record<string, string> = { Accept: 'text/event-stream', 'Last-Event-ID': String(lastId) };
      if (options.key) headers['X-API-Key'] = options.key;
      feedWatchdog();
      const res = await fetchImpl(options.path, { headers, signal: attempt.signal });
      if (res.status === 401) {
        clearTimeout(watchdog);
        options.onStatus('unauthorized');
        return;
      }
      if (!res.ok || !res.body) throw new Error(`stream answered ${res.status}`);
      options.onStatus('live');
      failures = 0;
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      const parser = new FrameParser();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        feedWatchdog();
        for (const frame of parser.push(value)) {
          const data = parseData(frame.data);
          if (frame.id === undefined) {
            options.onNotice?.({ event: frame.event, data });
            continue;
          }
          const id = Number(frame.id);
          // already delivered before the connection was lost: the server replays from Last-Event-ID, never before it
          if (!Number.isFinite(id) || id <= lastId) continue;
          lastId = id;
          options.onEvent({ id, event: frame.event, data });
        }
      }
    } catch {
      // aborted by close(), the watchdog, or a network failure: handled below
    } finally {
      clearTimeout(watchdog);
    }
    if (!closed) scheduleReconnect();
  }

  options.onStatus('connecting');
  void connect();
  return {
    close() {
      closed = true;
      clearTimeout(retryTimer);
      controller?.abort();
    },
    get lastId() {
      return lastId;
    },
  };
}
