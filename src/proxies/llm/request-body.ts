/**
 * Reading a request body, bounded, when a fault needs to see it (a `match`
 * on `model`, or a held request whose hang-up must be noticed). Only the
 * request is ever read ahead; answers always stream. A body over the bound
 * stops being read there and the rest streams on to the upstream after the
 * part already read.
 */
import type { IncomingMessage } from 'node:http';

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
