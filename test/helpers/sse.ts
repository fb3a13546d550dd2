/**
 * A small SSE client for tests: opens a request on node:http, parses frames
 * as they arrive (event/id/data/retry and comments) and lets a test wait for
 * a frame or for the end of the stream.
 */
import { request, type IncomingHttpHeaders } from 'node:http';

export interface ParsedFrame {
  event?: string;
  id?: string;
  data?: string;
  retry?: number;
  /** comment lines (without the leading colon) */
  comments: string[];
  /** the exact text of the frame, for framing assertions */
  raw: string;
}

export interface SseConnection {
  status: number;
  headers: IncomingHttpHeaders;
  frames: ParsedFrame[];
  /** all bytes received so far */
  text(): string;
  /** resolves with the first frame (already received or future) that matches */
  waitFor(predicate: (frame: ParsedFrame) => boolean, timeoutMs?: number): Promise<ParsedFrame>;
  /** resolves when the server ends the stream */
  ended: Promise<void>;
  /** the client goes away */
  close(): void;
}

export interface SseRequest {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
}

export function parseFrame(raw: string): ParsedFrame {
  const frame: ParsedFrame = { comments: [], raw };
  const data: string[] = [];
  for (const line of raw.split('\n')) {
    if (line === '') continue;
    if (line.startsWith(':')) {
      frame.comments.push(line.slice(1).trim());
      continue;
    }
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') frame.event = value;
    else if (field === 'id') frame.id = value;
    else if (field === 'data') data.push(value);
    else if (field === 'retry') frame.retry = Number(value);
  }
  if (data.length > 0) frame.data = data.join('\n');
  return frame;
}

/** Splits a stream's text into frames as chunks arrive, handing each parsed frame to `onFrame`. */
export function frameReader(onFrame: (frame: ParsedFrame) => void): (chunk: string) => void {
  let buffer = '';
  return (chunk) => {
    buffer += chunk;
    let idx: number;
    while ((idx = buffer.indexOf('\n\n')) !== -1) {
      const raw = buffer.slice(0, idx + 2);
      buffer = buffer.slice(idx + 2);
      onFrame(parseFrame(raw));
    }
  };
}

/** Opens a stream; resolves once the status line and headers arrived (non-2xx responses resolve too). */
export function openSse(req: SseRequest): Promise<SseConnection> {
  return new Promise((resolve, reject) => {
    const r = request(
      req.url,
      { method: req.method ?? 'GET', headers: { Accept: 'text/event-stream', ...req.headers } },
      (res) => {
        res.setEncoding('utf8');
        let all = '';
        const frames: ParsedFrame[] = [];
        const waiters: Array<{ predicate: (f: ParsedFrame) => boolean; resolve: (f: ParsedFrame) => void }> = [];
        let endResolve!: () => void;
        const ended = new Promise<void>((r2) => (endResolve = r2));
        const read = frameReader((frame) => {
          frames.push(frame);
          for (const w of [...waiters]) {
            if (w.predicate(frame)) {
              waiters.splice(waiters.indexOf(w), 1);
              w.resolve(frame);
            }
          }
        });
        res.on('data', (chunk: string) => {
          all += chunk;
          read(chunk);
        });
        res.on('end', endResolve);
        res.on('close', endResolve);
        res.on('error', endResolve);
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          frames,
          text: () => all,
          ended,
          close: () => {
            r.destroy();
            res.destroy();
          },
          waitFor(predicate, timeoutMs = 5000) {
            const found = frames.find(predicate);
            if (found) return Promise.resolve(found);
            return new Promise((resolveFrame, rejectFrame) => {
              const timer = setTimeout(() => {
                waiters.splice(waiters.indexOf(entry), 1);
                rejectFrame(
                  new Error(
                    `no matching SSE frame within ${timeoutMs} ms; got ${JSON.stringify(frames.map((f) => f.raw))}`,
                  ),
                );
              }, timeoutMs);
              const entry = {
                predicate,
                resolve: (f: ParsedFrame) => {
                  clearTimeout(timer);
                  resolveFrame(f);
                },
              };
              waiters.push(entry);
            });
          },
        });
      },
    );
    r.on('error', reject);
    if (req.body !== undefined) r.end(req.body);
    else r.end();
  });
}

/** JSON data of a frame */
export function frameJson<T = unknown>(frame: ParsedFrame): T {
  return JSON.parse(frame.data ?? 'null') as T;
}
