/**
 * Reading a request body, bounded, when a fault needs to see it (a `match`
 * on `model`, or a held request whose hang-up must be noticed). Only the
 * request is ever read ahead; answers always stream. A body over the bound
 * stops being read there and the rest streams on to the upstream after the
 * part already read.
 */
import type { IncomingMessage } from 'node:http';
import { createModelSniffer } from './model-sniffer.js';

export interface PeekedBody {
  chunks: Buffer[];
  /** false when the bound was reached first: the rest is still in the request stream */
  isComplete: boolean;
}

export function peekBody(req: IncomingMessage, limit: number): Promise<PeekedBody> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (isComplete: boolean) => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onEnd);
      req.off('close', onEnd);
      resolve({ chunks, isComplete });
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size > limit) {
        req.pause();
        finish(false);
      }
    };
    // a client that hangs up mid-body ends the peek too; what happens next sees the closed response
    const onEnd = () => finish(true);
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onEnd);
    req.on('close', onEnd);
  });
}

export interface ModelPeek extends PeekedBody {
  model: string | undefined;
}

/**
 * Reads the body only until its top-level `model` is known, for a fault
 * that matches on nothing else: most requests are decided on their first
 * chunk, and the rest streams on. `done` is called synchronously from the
 * chunk that decided it, the request paused when it is not complete, so
 * the caller pipes the rest on without a chunk slipping past. Where the
 * scan cannot vouch for its answer (it gave up, or the model is too long to
 * keep) the body is read to `limit` and parsed whole, as peekBody and
 * modelOf would. One difference from JSON.parse, which takes the last of
 * duplicate keys: the first top-level `model` decides (no SDK sends two).
 */
export function peekModel(req: IncomingMessage, limit: number, done: (peek: ModelPeek) => void): void {
  const sniffer = createModelSniffer(limit);
  const chunks: Buffer[] = [];
  let size = 0;
  let isSettled = false;
  const finish = (isComplete: boolean) => {
    if (isSettled) return;
    isSettled = true;
    req.off('data', onData);
    req.off('end', onEnd);
    req.off('error', onEnd);
    req.off('close', onEnd);
    if (!isComplete) req.pause();
    const isSure = !sniffer.isUnsure;
    const model = isSure ? sniffer.model : isComplete ? modelOf(chunks) : undefined;
    done({ chunks, isComplete, model });
  };
  // the body's declared length: a body read to it is whole without waiting a tick for its 'end'
  const declared = req.headers['content-length'] === undefined ? -1 : Number(req.headers['content-length']);
  const onData = (chunk: Buffer) => {
    chunks.push(chunk);
    size += chunk.length;
    if (!sniffer.isUnsure) sniffer.push(chunk);
    const isFound = sniffer.isDone && !sniffer.isUnsure;
    if (size === declared && (isFound || size <= limit)) finish(true);
    else if (isFound || size > limit) finish(false);
  };
  // the body ended (or the client left) before the scan decided: what was read is all there is
  const onEnd = () => finish(true);
  req.on('data', onData);
  req.on('end', onEnd);
  req.on('error', onEnd);
  req.on('close', onEnd);
}

/** the `model` of a JSON request body, or undefined when there is none */
export function modelOf(chunks: Buffer[]): string | undefined {
  if (chunks.length === 0) return undefined;
  try {
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
    if (typeof body === 'object' && body !== null && !Array.isArray(body)) {
      const model = (body as Record<string, unknown>).model;
      return typeof model === 'string' ? model : undefined;
    }
  } catch {
    // not JSON: no model to match
  }
  return undefined;
}
