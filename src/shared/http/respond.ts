/**
 * Response helpers of every HTTP listener of the arena, and the one mapping
 * of a thrown value to an answer: typed errors keep their
 * status and code, anything else becomes a generic 500 (details to the log).
 */
import type { ServerResponse } from 'node:http';
import { isArenaError, errorMessage } from '../errors.js';

export type Logger = (line: string) => void;

export const stderrLogger: Logger = (line) => {
  process.stderr.write(`${line}\n`);
};

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  if (status === 413) discardUnreadBody(res);
  const text = JSON.stringify(body ?? null);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

/** how long a body refused with 413 is read and thrown away before the connection is cut */
const DISCARD_MS = 2_000;

/**
 * A 413 is answered before the body is read. Closing the connection at once
 * resets a client that is still sending, and the reset often destroys the
 * answer before the client reads it. So the rest of the body is read and
 * thrown away for a short while (the connection stays usable after it), and
 * only a client still sending after that is cut off.
 */
function discardUnreadBody(res: ServerResponse): void {
  const req = res.req;
  if (!req || req.complete || req.destroyed) return;
  const timer = setTimeout(() => req.socket?.destroy(), DISCARD_MS);
  timer.unref();
  const done = () => clearTimeout(timer);
  req.once('end', done).once('close', done);
  req.removeAllListeners('data');
  req.resume();
}

export interface ErrorBody {
  error: string;
  code: string;
  details?: unknown;
  hint?: string;
}

/** Maps a thrown value to a status and a body that is safe to show a client. */
export function errorResponse(err: unknown, log: Logger): { status: number; body: ErrorBody } {
  if (isArenaError(err) && err.status >= 400 && err.status < 600) {
    const body: ErrorBody = { error: err.message, code: err.code };
    if (err.details !== undefined) body.details = err.details;
    if (err.hint) body.hint = err.hint;
    if (err.status >= 500 && err.status !== 503) log(`arena server: ${err.name}: ${err.message}`);
    return { status: err.status, body };
  }
  log(`arena server: unhandled error: ${err instanceof Error && err.stack ? err.stack : errorMessage(err)}`);
  return { status: 500, body: { error: 'internal server error', code: 'internal_error' } };
}

export function sendError(res: ServerResponse, err: unknown, log: Logger, headers: Record<string, string> = {}): void {
  if (res.headersSent) {
    // a stream already started: the status line is gone, just end it
    if (!isArenaError(err)) log(`arena server: error after headers were sent: ${errorMessage(err)}`);
    res.end();
    return;
  }
  const { status, body } = errorResponse(err, log);
  sendJson(res, status, body, headers);
}
