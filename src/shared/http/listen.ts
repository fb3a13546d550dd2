/**
 * The one way the arena listens for HTTP: `arena serve`, `arena target
 * serve`, the proxies' control ports and the LLM and MCP proxies all start
 * here. Every request passes the origin guard (./origin-guard.ts) before its
 * handler sees it, malformed HTTP gets the API's JSON error shape, and a
 * failed bind is a usage error naming the address.
 */
import { createServer, STATUS_CODES, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { UsageError } from '../errors.js';
import { createOriginGuard, type OriginGuard } from './origin-guard.js';
import { sendJson } from './respond.js';

export interface HttpListenOptions {
  /** default 127.0.0.1 */
  host?: string;
  /** 0 (the default) picks a free port */
  port?: number;
  /** what a bind error calls the port: "port", "control port" */
  name?: string;
  /** origins configured to call this listener besides its own (read on every request) */
  allowedOrigins?: () => ReadonlySet<string> | undefined;
  /** added to a 403 of the origin guard: how a legitimate caller gets through */
  guardHint?: string;
}

export interface HttpListener {
  readonly server: Server;
  readonly host: string;
  readonly port: number;
  readonly url: string;
  /** stops listening and drops every connection at once */
  close(): Promise<void>;
}

/**
 * Malformed HTTP (a bad request line, broken headers) gets the API's JSON
 * error shape instead of node's empty 400; a reset connection is just closed.
 */
function answerMalformed(err: NodeJS.ErrnoException, socket: Duplex): void {
  if (err.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const isTimeout = err.code === 'ERR_HTTP_REQUEST_TIMEOUT';
  const status = isTimeout ? 408 : 400;
  const reason = isTimeout
    ? 'the request took too long to arrive'
    : `malformed HTTP request (${(err as { reason?: string }).reason ?? err.code ?? 'parse error'})`;
  const body = JSON.stringify({ error: reason, code: isTimeout ? 'request_timeout' : 'bad_request' });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** A listen failure as a usage error naming the address: a port in use, a host that is not local. */
function listenError(err: unknown, host: string, port: number, name = 'port'): unknown {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE')
    return new UsageError(`${name} ${port} on ${host} is already in use`, {
      code: 'port_in_use',
      hint: 'pick another port, or 0 for a free one',
      cause: err,
    });
  if (code === 'EACCES')
    return new UsageError(`not allowed to listen on port ${port} on ${host}`, { code: 'port_denied', cause: err });
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return new UsageError(`cannot bind ${host}: no such local address`, { code: 'bad_host', cause: err });
  return err;
}

export async function listenHttp(handler: RequestListener, options: HttpListenOptions = {}): Promise<HttpListener> {
  const host = options.host ?? '127.0.0.1';
  const port = options.port ?? 0;
  // set once the port is known; no request arrives before the server listens
  let guard: OriginGuard = () => ({ error: 'not listening yet', code: 'unavailable' });
  const server = createServer((req, res) => {
    const refusal = guard(req);
    if (refusal === undefined) return handler(req, res);
    sendJson(res, 403, refusal);
  });
  server.on('clientError', answerMalformed);
  await new Promise<void>((resolve, reject) => {
    const onError = (err: Error) => reject(listenError(err, host, port, options.name));
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve();
    });
  });
  const actual = (server.address() as AddressInfo).port;
  guard = createOriginGuard({
    host,
    port: actual,
    ...(options.allowedOrigins ? { allowedOrigins: options.allowedOrigins } : {}),
    ...(options.guardHint ? { hint: options.guardHint } : {}),
  });
  let closing: Promise<void> | undefined;
  return {
    server,
    host,
    port: actual,
    url: `http://${host.includes(':') ? `[${host}]` : host}:${actual}`,
    close: () =>
      (closing ??= new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
      })),
  };
}
