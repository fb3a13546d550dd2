/**
 * A server-sent-events writer on a node:http response: headers flushed at
 * once, `retry:` once, `event:`/`id:`/`data:` frames, a heartbeat comment,
 * backpressure through `drain` with a capped queue (a client that falls too
 * far behind is dropped), and cleanup when the response closes.
 *
 * Frames go through `res.write`, like any other response body. A fan-out
 * encodes a frame once (`encodeFrame`) and hands every stream the same Buffer.
 */
import type { ServerResponse } from 'node:http';

export interface SseOptions {
  /** heartbeat comment interval; DESIGN §7 asks for at least every 15 s */
  heartbeatMs?: number;
  /** reconnection delay suggested to the client */
  retryMs?: number;
  /** frames queued while the response is full before the client is dropped */
  maxQueue?: number;
  /** extra response headers (e.g. CORS) */
  headers?: Record<string, string>;
}

export interface SseFrame {
  event?: string;
  id?: string | number;
  /** strings are sent as they are (one `data:` line per line); anything else as JSON */
  data: unknown;
}

export const DEFAULT_HEARTBEAT_MS = 15_000;

export class SseStream {
  /** frames held back while `res.write` waits for `drain` */
  private queue: Array<string | Buffer> = [];
  private isBlocked = false;
  private isClosed = false;
  private readonly heartbeat: NodeJS.Timeout | undefined;
  private readonly closeListeners: Array<() => void> = [];
  private readonly maxQueue: number;
  /** true when the stream was dropped because the client could not keep up */
  dropped = false;

  constructor(
    private readonly res: ServerResponse,
    options: SseOptions = {},
  ) {
    this.maxQueue = options.maxQueue ?? 1000;
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache, no-transform',
      'X-Accel-Buffering': 'no',
      ...options.headers,
    });
    res.flushHeaders();
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

  /** frames queued while waiting for `drain` */
  get pending(): number {
    return this.queue.length;
  }

  send(frame: SseFrame): boolean {
    return this.write(formatFrame(frame));
  }

  /** a frame already encoded by `encodeFrame`, shared by every subscriber of the same event */
  sendEncoded(frame: Buffer): boolean {
    return this.write(frame);
  }

  comment(text: string): boolean {
    return this.write(`: ${stripLineBreaks(text)}\n\n`);
  }

  onClose(listener: () => void): void {
    if (this.isClosed) listener();
    else this.closeListeners.push(listener);
  }

  /** sends an optional last frame, then ends the response (queued frames still go first) */
  close(final?: SseFrame): void {
    if (this.isClosed) return;
    if (final) this.send(final);
    for (const chunk of this.queue.splice(0)) this.res.write(chunk);
    this.res.end();
    this.cleanup();
  }

  /** false when the frame was not taken: the stream is closed, or it was just dropped */
  private write(chunk: string | Buffer): boolean {
    if (this.isClosed || this.res.destroyed) return false;
    if (this.isBlocked) {
      this.queue.push(chunk);
      if (this.queue.length > this.maxQueue) {
        this.dropped = true;
        this.res.destroy();
        this.cleanup();
        return false;
      }
      return true;
    }
    if (!this.res.write(chunk)) this.waitForDrain();
    return true;
  }

  private waitForDrain(): void {
    this.isBlocked = true;
    this.res.once('drain', this.flush);
  }

  private readonly flush = (): void => {
    this.isBlocked = false;
    while (this.queue.length > 0 && !this.isClosed) {
      if (!this.res.write(this.queue.shift()!)) {
        this.waitForDrain();
        return;
      }
    }
  };

  private cleanup(): void {
    if (this.isClosed) return;
    this.isClosed = true;
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.res.off('drain', this.flush);
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
export function encodeFrame(frame: SseFrame): Buffer {
  return Buffer.from(formatFrame(frame));
}

export function formatFrame(frame: SseFrame): string {
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
