/**
 * A server-sent-events writer on a node:http response: headers flushed at
 * once, `retry:` once, `event:`/`id:`/`data:` frames, a heartbeat comment,
 * backpressure through `drain` with a capped queue (a client that falls too
 * far behind is dropped), and cleanup when the response closes.
 *
 * Fan-out cost: with 1,000 subscribers, serialising and UTF-8 encoding each
 * frame once per client and one syscall per frame dominated the profile. A
 * frame is encoded once (`encodeFrame`) and handed to every stream as the
 * same Buffer (`sendEncoded`). The body is not chunk-encoded: an event stream
 * ends when its connection closes, which delimits the body (RFC 9112 §6.3),
 * so a frame is one write to the socket itself. `ServerResponse.write` cost a
 * cork, a nextTick and four writes (size, CRLF, frame, CRLF) per client per
 * event. Frames written in one tick still leave as one socket write: the
 * first write of a tick corks the socket until the next tick, unless the
 * caller holds it already (`hold`, one nextTick for a whole fan-out) or sends
 * it `now` (a fan-out's first event of a tick, usually its only one).
 */
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

export interface SSEOptions {
  /** heartbeat comment interval; DESIGN §7 asks for at least every 15 s */
  heartbeatMs?: number;
  /** reconnection delay suggested to the client */
  retryMs?: number;
  /** frames queued while the socket is full before the client is dropped */
  maxQueue?: number;
  /** extra response headers (e.g. CORS) */
  headers?: Record<string, string>;
}

export interface SSEFrame {
  event?: string;
  id?: string | number;
  /** strings are sent as they are (one `data:` line per line); anything else as JSON */
  data: unknown;
}

export const DEFAULT_HEARTBEAT_MS = 15_000;

export class SSEStream {
  private queue: Array<string | Buffer> = [];
  private blocked = false;
  private isClosed = false;
  private readonly heartbeat: NodeJS.Timeout | undefined;
  private readonly closeListeners: Array<() => void> = [];
  private readonly maxQueue: number;
  private readonly socket: Socket | null;
  /** the socket is corked until a nextTick uncorks it (ours, or a fan-out's `release`) */
  private isHeld = false;
  /** true when the stream was dropped because the client could not keep up */
  dropped = false;

  constructor(
    private readonly res: ServerResponse,
    options: SSEOptions = {},
  ) {
    this.maxQueue = options.maxQueue ?? 1000;
    // the body runs until the connection closes: no chunk framing, frames go to the socket as they are
    res.useChunkedEncodingByDefault = false;
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache, no-transform',
      Connection: 'close',
      'X-Accel-Buffering': 'no',
      ...options.headers,
    });
    res.flushHeaders();
    this.socket = res.socket;
    // Nagle would hold small frames back; an event stream wants them out now
    this.socket?.setNoDelay(true);
    this.write(`retry: ${options.retryMs ?? 3000}\n\n`);
    const heartbeatMs = options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS;
    if (heartbeatMs > 0) {
      this.heartbeat = setInterval(() => this.comment('heartbeat'), heartbeatMs);
      this.heartbeat.unref();
    }
    res.once('close', () => this.cleanup());
  }

  get closed(): boolean {
    return this.isClosed;
  }

  /** queued frames not yet handed to the socket */
  get pending(): number {
    return this.queue.length;
  }

  send(frame: SSEFrame): boolean {
    return this.write(formatFrame(frame));
  }

  /**
   * A frame already encoded by `encodeFrame`, shared by every subscriber of the same event. `now`:
   * to the socket at once, without corking it for the rest of the tick (a fan-out's first event of
   * a tick, which usually is its only one: a cork and uncork cost more than the write they save).
   */
  sendEncoded(frame: Buffer, now = false): boolean {
    return this.write(frame, now);
  }

  /**
   * Corks the socket until `release`: a fan-out holds all its streams for a tick with one
   * nextTick, instead of one per stream, and what it writes meanwhile leaves as one write each.
   */
  hold(): void {
    if (this.isHeld || this.isClosed || !this.socket) return;
    this.isHeld = true;
    this.socket.cork();
  }

  release = (): void => {
    if (!this.isHeld) return;
    this.isHeld = false;
    this.socket?.uncork();
  };

  comment(text: string): boolean {
    return this.write(`: ${stripLineBreaks(text)}\n\n`);
  }

  onClose(listener: () => void): void {
    if (this.isClosed) listener();
    else this.closeListeners.push(listener);
  }

  /** sends an optional last frame, then ends the response */
  close(final?: SSEFrame): void {
    if (this.isClosed) return;
    if (final) this.send(final);
    const rest = Buffer.concat(this.queue.map((chunk) => (typeof chunk === 'string' ? Buffer.from(chunk) : chunk)));
    this.queue = [];
    this.res.end(rest.length > 0 ? rest : undefined);
    this.cleanup();
  }

  private write(chunk: string | Buffer, now = false): boolean {
    if (this.isClosed) return false;
    if (this.blocked) {
      this.queue.push(chunk);
      if (this.queue.length > this.maxQueue) {
        this.dropped = true;
        this.res.destroy();
        this.cleanup();
        return false;
      }
      return true;
    }
    const socket = this.socket;
    if (!socket || socket.destroyed) return false;
    // frames of one tick (ready + reset, a replay) leave as one write
    if (!this.isHeld && !now) {
      this.hold();
      process.nextTick(this.release);
    }
    if (!socket.write(chunk)) {
      this.blocked = true;
      socket.once('drain', this.flush);
    }
    return true;
  }

  private readonly flush = (): void => {
    this.blocked = false;
    const socket = this.socket;
    while (socket && this.queue.length > 0 && !this.isClosed) {
      const chunk = this.queue.shift()!;
      if (!socket.write(chunk)) {
        this.blocked = true;
        socket.once('drain', this.flush);
        return;
      }
    }
  };

  private cleanup(): void {
    if (this.isClosed) return;
    this.isClosed = true;
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.socket?.off('drain', this.flush);
    this.release();
    for (const listener of this.closeListeners.splice(0)) {
      try {
        listener();
      } catch {
        // a listener's failure must not keep the others from running
      }
    }
  }
}

/** the frame as bytes, to send the same event to many streams without encoding it for each */
export function encodeFrame(frame: SSEFrame): Buffer {
  return Buffer.from(formatFrame(frame));
}

export function formatFrame(frame: SSEFrame): string {
  let out = '';
  if (frame.event !== undefined) out += `event: ${stripLineBreaks(String(frame.event))}\n`;
  // a NUL in an id makes the client ignore it, so it goes too
  if (frame.id !== undefined) out += `id: ${stripLineBreaks(String(frame.id)).replace(/\0/g, '')}\n`;
  const text = typeof frame.data === 'string' ? frame.data : JSON.stringify(frame.data ?? null);
  for (const line of text.split(/\r\n|\r|\n/)) out += `data: ${line}\n`;
  return `${out}\n`;
}

function stripLineBreaks(value: string): string {
  return value.replace(/[\r\n]/g, ' ');
}
