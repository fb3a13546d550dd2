/**
 * Response helpers and the one error boundary: typed errors keep their
 * status and code, anything else becomes a generic 500 (details to the log).
 */
import type { ServerResponse } from 'node:http';
import { isArenaError, errorMessage } from '../shared/errors.js';

export type Logger = (line: string) => void;

export const stderrLogger: Logger = (line) => {
  process.stderr.write(`${line}\n`);
};

export function sendJSON(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  const text = JSON.stringify(body ?? null);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
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
  sendJSON(res, status, body, headers);
}
