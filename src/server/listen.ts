/**
 * Starts the API server for a router (through the arena's one HTTP
 * listener, ../shared/http/listen.ts) and stops it gracefully: new
 * requests get 503, event streams get a final event, in-flight requests
 * finish (or, out of time, get a 503, except committed ones: see
 * ShutdownGate.commit), then the server stops listening and closes every connection.
 */
import type { Server } from 'node:http';
import { listenHttp } from '../shared/http/listen.js';
import type { Router } from './router.js';

export interface ListenOptions {
  host?: string;
  /** 0 picks a free port */
  port?: number;
  /** how long close() waits for in-flight requests before answering them 503 */
  closeTimeoutMs?: number;
  /**
   * how much longer it waits for committed requests (an action applied, its record on the way), which
   * are never answered 503; past it their connections are dropped, unanswered (default 60 s: an append
   * retries for 15 s)
   */
  commitTimeoutMs?: number;
}

export interface ServerHandle {
  readonly server: Server;
  readonly host: string;
  readonly port: number;
  readonly url: string;
  /** idempotent */
  close(reason?: string): Promise<void>;
}

export async function listen(router: Router, options: ListenOptions = {}): Promise<ServerHandle> {
  const host = options.host ?? '127.0.0.1';
  const listener = await listenHttp(router.handler(), {
    host,
    port: options.port ?? 0,
    allowedOrigins: () => router.allowedOrigins,
    guardHint: 'a page on another origin can be allowed with arena serve --allowed-origin ORIGIN',
  });
  const { server, port } = listener;
  // long-lived event streams must not be cut by the default request timeout
  server.requestTimeout = 0;
  server.headersTimeout = 30_000;
  server.keepAliveTimeout = 5_000;
  let closing: Promise<void> | undefined;
  const close = (reason = 'server is shutting down') =>
    (closing ??= (async () => {
      // still listening through the grace time: a request that arrives meanwhile, on a new connection or
      // one whose request was not yet read, is answered 503 by the gate instead of having its socket
      // closed under it (server.close() would close those at once, and the client gets no answer at all)
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
      // out of time: whatever is still unanswered gets a 503 before the connections go, except an action
      // already applied: a 503 could follow its record, so it finishes and answers for itself
      await router.answerUnfinished();
      await router.committedSettled(options.commitTimeoutMs ?? 60_000);
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    })());
  return { server, host, port, url: listener.url, close };
}
