/**
 * Starts a node:http server for a router and stops it gracefully: new
 * requests get 503, event streams get a final event, in-flight requests
 * finish, idle keep-alive sockets are closed, then the server closes.
 */
import { createServer, STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { AddressInfo } from 'node:net';
import type { Router } from './router.js';

export interface ListenOptions {
  host?: string;
  /** 0 picks a free port */
  port?: number;
  /** how long close() waits for in-flight requests before dropping connections */
  closeTimeoutMs?: number;
}

export interface ServerHandle {
  readonly server: Server;
  readonly host: string;
  readonly port: number;
  readonly url: string;
  /** idempotent */
  close(reason?: string): Promise<void>;
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

export async function listen(router: Router, options: ListenOptions = {}): Promise<ServerHandle> {
  const host = options.host ?? '127.0.0.1';
  const server = createServer(router.handler());
  // long-lived event streams must not be cut by the default request timeout
  server.requestTimeout = 0;
  server.headersTimeout = 30_000;
  server.keepAliveTimeout = 5_000;
  server.on('clientError', answerMalformed);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  let closing: Promise<void> | undefined;
  const close = (reason = 'server is shutting down') =>
    (closing ??= (async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const timeout = options.closeTimeoutMs ?? 5_000;
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        router.shutdown({ event: 'shutdown', data: { reason } }),
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, timeout);
          timer.unref();
        }),
      ]);
      clearTimeout(timer);
      // out of time: whatever is still unanswered gets a 503 before the connections go
      await router.answerUnfinished();
      server.closeAllConnections();
      await closed;
    })());
  return { server, host, port, url: `http://${urlHost}:${port}`, close };
}
