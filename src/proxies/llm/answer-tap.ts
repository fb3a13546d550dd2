/**
 * Reads the upstream's answer beside the relay (a second `data` listener: the
 * client's bytes are not delayed or changed) to learn its model and usage.
 * A streamed answer is read event by event and not kept; a JSON answer, or a
 * compressed one, is kept until it ends, within a byte budget shared by every
 * answer in flight. An answer over the budget is relayed as usual and
 * recorded without tokens.
 */
import type { IncomingMessage } from 'node:http';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { StreamUsage, usageOfJson, type AnswerUsage } from './usage.js';

export interface TapBudget {
  /** bytes kept now, all answers together */
  used: number;
  readonly max: number;
}

export interface AnswerTap {
  /** what was read so far: call once the answer ended (or broke off) */
  finish(): AnswerUsage;
}

const DECOMPRESS: Record<string, (buf: Buffer, opts: { maxOutputLength: number }) => Buffer> = {
  gzip: gunzipSync,
  'x-gzip': gunzipSync,
  deflate: inflateSync,
  br: brotliDecompressSync,
};

export function tapAnswer(upRes: IncomingMessage, budget: TapBudget): AnswerTap {
  const status = upRes.statusCode ?? 0;
  const type = String(upRes.headers['content-type'] ?? '').toLowerCase();
  const isStream = type.startsWith('text/event-stream');
  const encoding = String(upRes.headers['content-encoding'] ?? 'identity').toLowerCase();
  const isIdentity = encoding === 'identity' || encoding === '';
  // only a 2xx JSON or event-stream answer carries usage; anything else is relayed unread
  if (status < 200 || status >= 300 || !(isStream || type.includes('json')) || !(isIdentity || encoding in DECOMPRESS))
    return { finish: () => ({}) };

  if (isStream && isIdentity) {
    const scanner = new StreamUsage();
    upRes.on('data', (chunk: Buffer) => scanner.feed(chunk));
    return { finish: () => scanner.result() };
  }

  const chunks: Buffer[] = [];
  let kept = 0;
  let isOver = false;
  const release = () => {
    budget.used -= kept;
    kept = 0;
    chunks.length = 0;
  };
  upRes.on('data', (chunk: Buffer) => {
    if (isOver) return;
    if (budget.used + chunk.length > budget.max) {
      isOver = true;
      release();
      return;
    }
    chunks.push(chunk);
    kept += chunk.length;
    budget.used += chunk.length;
  });
  let done: AnswerUsage | undefined;
  return {
    finish() {
      if (done) return done;
      done = isOver || !upRes.complete ? {} : read(Buffer.concat(chunks), encoding, isStream, budget.max);
      release();
      return done;
    },
  };
}

function read(body: Buffer, encoding: string, isStream: boolean, maxBytes: number): AnswerUsage {
  try {
    const plain = encoding in DECOMPRESS ? DECOMPRESS[encoding]!(body, { maxOutputLength: maxBytes }) : body;
    if (isStream) {
      const scanner = new StreamUsage();
      scanner.feed(plain);
      return scanner.result();
    }
    return usageOfJson(JSON.parse(plain.toString('utf8')));
  } catch {
    // not JSON, or too large once inflated: no usage known
    return {};
  }
}
