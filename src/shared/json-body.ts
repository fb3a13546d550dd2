/**
 * Request bodies for every HTTP edge (the API server, `arena target serve`,
 * the proxies' control ports): a hard byte limit (Content-Length checked up
 * front, bytes counted while streaming), JSON that must parse, nesting at
 * most 64 deep, and no prototype keys. The walk over the parsed value is
 * iterative, so no body can overflow the stack.
 */
import type { IncomingMessage } from 'node:http';
import { ArenaError, UsageError } from './errors.js';

export const DEFAULT_BODY_LIMIT = 1024 * 1024;
export const MAX_JSON_DEPTH = 64;

const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

export class PayloadTooLargeError extends ArenaError {
  constructor(limit: number) {
    super(`request body exceeds ${limit} bytes`, { code: 'payload_too_large', exitCode: 2, status: 413 });
  }
}

/** throws PayloadTooLargeError before reading anything when the declared length is over the limit */
export function checkDeclaredLength(req: IncomingMessage, limit: number): void {
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > limit) throw new PayloadTooLargeError(limit);
}

export function readBody(req: IncomingMessage, limit = DEFAULT_BODY_LIMIT): Promise<Buffer> {
  checkDeclaredLength(req, limit);
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (err?: Error) => {
      if (done) return;
      done = true;
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('aborted', onAborted);
      if (err) {
        // stop reading; the response (413) still goes out and the socket closes after it
        req.pause();
        reject(err);
      } else resolve(Buffer.concat(chunks, size));
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) return finish(new PayloadTooLargeError(limit));
      chunks.push(chunk);
    };
    const onEnd = () => finish();
    // a client that goes away mid-body is not a server error: no 500, no stack trace in the log
    const closed = () =>
      new ArenaError('client closed the connection before the body ended', {
        code: 'client_closed',
        exitCode: 2,
        status: 400,
      });
    const onError = () => finish(closed());
    const onAborted = () => finish(closed());
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('aborted', onAborted);
  });
}

/** Parses JSON text; rejects empty text, bad JSON, nesting over 64 levels and `__proto__`/`constructor`/`prototype` keys with a 400. */
export function parseJsonBody(text: string, maxDepth = MAX_JSON_DEPTH): unknown {
  if (text.trim() === '') throw new UsageError('request body is empty: expected JSON', { code: 'invalid_json' });
  // depth is checked on the text first: JSON.parse itself recurses per level
  const depth = jsonTextDepth(text);
  if (depth > maxDepth)
    throw new UsageError(`request body is nested ${depth} levels deep (at most ${maxDepth})`, { code: 'too_deep' });
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new UsageError(`request body is not valid JSON: ${(err as Error).message}`, { code: 'invalid_json' });
  }
  const bad = findForbiddenKey(value);
  if (bad) throw new UsageError(`request body has a forbidden key at ${bad}`, { code: 'invalid_json' });
  return value;
}

/** The deepest bracket nesting in JSON text, strings skipped; a linear scan with no recursion. */
export function jsonTextDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      depth++;
      if (depth > max) max = depth;
    } else if (c === 125 || c === 93) depth--;
  }
  return max;
}

function findForbiddenKey(value: unknown): string | undefined {
  const stack: Array<[unknown, string]> = [[value, '$']];
  while (stack.length > 0) {
    const [v, path] = stack.pop()!;
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push([v[i], `${path}[${i}]`]);
    } else if (v !== null && typeof v === 'object') {
      const keys = Object.keys(v);
      for (const key of keys) if (FORBIDDEN_KEYS.has(key)) return `${path}.${key}`;
      for (let i = keys.length - 1; i >= 0; i--)
        stack.push([(v as Record<string, unknown>)[keys[i]!], `${path}.${keys[i]}`]);
    }
  }
  return undefined;
}
