/**
 * The one way the arena calls out over HTTP (remote targets, health and leader probes, workload
 * requests, invariant checks, the LLM probe): a deadline on the whole call, headers and body alike
 * (a server that trickles one byte a second is cut off at the deadline, not kept for hours), a cap on
 * the answer (read as it comes and abandoned past the cap, never buffered whole), and an abort signal
 * (Ctrl-C / SIGTERM ends a command waiting on one). Every failure is an OutboundCallError saying
 * which URL and what happened, never a stack trace.
 */
import http from 'node:http';
import https from 'node:https';
import { RuntimeError } from './errors.js';

export interface OutboundCall {
  method?: string;
  url: string;
  headers?: Record<string, string>;
  body?: string;
  /** the whole call, from connecting to the answer's last byte */
  timeoutMs: number;
  /** the largest answer taken (default 1 MiB); a larger one fails the call */
  maxBytes?: number;
  /** 'cut': past maxBytes, answer with the status and what was read (a probe needs only the status) */
  overflow?: 'fail' | 'cut';
  /** a connection pool (default: a fresh connection, so that a probe sees an agent that stopped accepting) */
  agent?: http.Agent | false;
  /**
   * aborts the call in flight when it fires (the command was interrupted); a call started after it
   * fired (a revert on the way out) runs to its own deadline
   */
  signal?: AbortSignal;
}

export interface OutboundAnswer {
  status: number;
  body: string;
}

export type OutboundFailure = 'refused' | 'reset' | 'timeout' | 'too_large' | 'broken' | 'aborted' | 'unreachable';

export class OutboundCallError extends RuntimeError {
  constructor(
    message: string,
    readonly failure: OutboundFailure,
  ) {
    super(message, { code: `http_${failure}` });
  }
}

export const DEFAULT_MAX_ANSWER_BYTES = 1024 * 1024;

export function httpCall(call: OutboundCall): Promise<OutboundAnswer> {
  let url: URL;
  try {
    url = new URL(call.url);
  } catch {
    return Promise.reject(new OutboundCallError(`${call.url}: not a URL`, 'unreachable'));
  }
  const lib = url.protocol === 'https:' ? https : http;
  const maxBytes = call.maxBytes ?? DEFAULT_MAX_ANSWER_BYTES;
  const what = call.url;
  return new Promise((resolve, reject) => {
    let done = false;
    const finish = (err: OutboundCallError | undefined, answer?: OutboundAnswer) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      call.signal?.removeEventListener('abort', onAbort);
      if (err) {
        req.destroy();
        reject(err);
      } else resolve(answer!);
    };
    const onAbort = () => finish(new OutboundCallError(`${what}: interrupted`, 'aborted'));
    const req = lib.request(
      url,
      { method: call.method ?? 'GET', headers: call.headers, agent: call.agent ?? false },
      (res) => {
        const chunks: Buffer[] = [];
        const overflow = () => {
          if (call.overflow !== 'cut') return finish(tooLarge(what, maxBytes));
          finish(undefined, { status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') });
          req.destroy();
        };
        const declared = Number(res.headers['content-length']);
        if (Number.isFinite(declared) && declared > maxBytes) return overflow();
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) overflow();
          else chunks.push(chunk);
        });
        res.on('end', () =>
          finish(undefined, { status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', (err) => finish(new OutboundCallError(`${what}: answer broke off (${err.message})`, 'broken')));
        res.on('aborted', () => finish(new OutboundCallError(`${what}: answer broke off`, 'broken')));
      },
    );
    const timer = setTimeout(
      () => finish(new OutboundCallError(`${what}: no complete answer within ${call.timeoutMs}ms`, 'timeout')),
      call.timeoutMs,
    );
    req.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'ECONNREFUSED') finish(new OutboundCallError(`${what}: connection refused`, 'refused'));
      else if (err.code === 'ECONNRESET') finish(new OutboundCallError(`${what}: connection reset`, 'reset'));
      else finish(new OutboundCallError(`${what}: ${err.code ?? err.message}`, 'unreachable'));
    });
    if (call.signal && !call.signal.aborted) call.signal.addEventListener('abort', onAbort, { once: true });
    if (call.body !== undefined) req.end(call.body);
    else req.end();
  });
}

function tooLarge(what: string, maxBytes: number): OutboundCallError {
  return new OutboundCallError(`${what}: the answer is larger than ${maxBytes} bytes`, 'too_large');
}
