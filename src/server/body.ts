/**
 * Request bodies: a hard byte limit (Content-Length checked up front, bytes
 * counted while streaming), JSON that must parse, and no prototype keys.
 */
import type { IncomingMessage } from 'node:http';
import { UsageError } from '../shared/errors.js';
import { PayloadTooLargeError } from './errors.js';

export const DEFAULT_BODY_LIMIT = 1024 * 1024;

const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

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
    const onError = (err: Error) => finish(err);
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
  });
}

/** Parses JSON text; rejects empty text, bad JSON and `__proto__`/`constructor`/`prototype` keys with a 400. */
export function parseJSONBody(text: string): unknown {
  if (text.trim() === '') throw new UsageError('request body is empty: expected JSON', 'invalid_json');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new UsageError(`request body is not valid JSON: ${(err as Error).message}`, 'invalid_json');
  }
  const bad = findForbiddenKey(value, '$');
  if (bad) throw new UsageError(`request body has a forbidden key at ${bad}`, 'invalid_json');
  return value;
}

function findForbiddenKey(value: unknown, path: string): string | undefined {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findForbiddenKey(value[i], `${path}[${i}]`);
      if (found) return found;
    }
  } else if (value !== null && typeof value === 'object') {
    for (const key of Object.keys(value)) {
      if (FORBIDDEN_KEYS.has(key)) return `${path}.${key}`;
      const found = findForbiddenKey((value as Record<string, unknown>)[key], `${path}.${key}`);
      if (found) return found;
    }
  }
  return undefined;
}

/** A JSON object body (arrays and scalars are a 400 naming what was sent). */
export function asObject(value: unknown, what = 'request body'): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new UsageError(`${what} must be a JSON object, got ${Array.isArray(value) ? 'an array' : value === null ? 'null' : typeof value}`, 'invalid_input');
  }
  return value as Record<string, unknown>;
}
