/**
 * One HTTP request with a hard timeout and an error that says what happened
 * (connection refused, timed out after 1s, …). A fresh connection each time:
 * a probe must notice an agent that stopped accepting connections, which a
 * pooled keep-alive socket would hide.
 */
import http from 'node:http';
import https from 'node:https';

export interface HttpCall {
  method?: string;
  url: string;
  headers?: Record<string, string>;
  body?: string;
  timeoutMs: number;
  /** cap on the answer kept in memory */
  maxBytes?: number;
}

export interface HttpAnswer {
  status: number;
  body: string;
}

export class HttpCallError extends Error {}

export function httpCall(call: HttpCall): Promise<HttpAnswer> {
  const url = new URL(call.url);
  const lib = url.protocol === 'https:' ? https : http;
  const maxBytes = call.maxBytes ?? 1024 * 1024;
  return new Promise((resolve, reject) => {
    let done = false;
    const finish = (err: Error | undefined, answer?: HttpAnswer) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      if (err) reject(err);
      else resolve(answer!);
    };
    const req = lib.request(url, { method: call.method ?? 'GET', headers: call.headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size <= maxBytes) chunks.push(chunk);
      });
      res.on('end', () =>
        finish(undefined, { status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
      );
      res.on('error', (err) => finish(new HttpCallError(`${call.url}: answer broke off (${err.message})`)));
    });
    const timer = setTimeout(() => {
      finish(new HttpCallError(`${call.url}: no answer within ${call.timeoutMs}ms`));
      req.destroy();
    }, call.timeoutMs);
    req.on('error', (err: NodeJS.ErrnoException) => {
      const why =
        err.code === 'ECONNREFUSED'
          ? 'connection refused'
          : err.code === 'ECONNRESET'
            ? 'connection reset'
            : err.message;
      finish(new HttpCallError(`${call.url}: ${why}`));
    });
    if (call.body !== undefined) req.end(call.body);
    else req.end();
  });
}
