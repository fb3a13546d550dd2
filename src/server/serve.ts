/**
 * Serving a bootstrapped root over HTTP: the one place that decides whether
 * a host may be bound (loopback always; anything else only with an API key)
 * and that shuts down in order (503 for new requests, final event to every
 * stream, server closed, then the root stopped with its faults reverted).
 */
import { isLoopbackName } from '../shared/http/origin-guard.js';
import { UsageError, isArenaError } from '../shared/errors.js';
import type { ArenaRoot } from '../bootstrap/index.js';
import { createApp, type App, type AppOptions } from './app.js';
import { listen, type ServerHandle } from './listen.js';

export interface ServeOptions extends AppOptions {
  host?: string;
  port?: number;
}

export interface RunningServer {
  url: string;
  host: string;
  port: number;
  isAuthEnabled: boolean;
  app: App;
  handle: ServerHandle;
  /** closes the HTTP side (streams get a final event); the root is the caller's to stop */
  close(reason?: string): Promise<void>;
}

/** localhost, 127.x.x.x, ::1 (the one definition: shared/http/origin-guard.ts) */
export const isLoopbackHost = isLoopbackName;

export function checkBind(host: string, apiKey: string | undefined): void {
  if (!isLoopbackHost(host) && !apiKey?.trim()) {
    throw new UsageError(`refusing to bind ${host} without an API key: anyone who can reach it could inject faults`, {
      code: 'unsafe_bind',
      hint: 'pass --api-key KEY or set ARENA_API_KEY, or bind 127.0.0.1',
    });
  }
}

export async function serveRoot(root: ArenaRoot, options: ServeOptions = {}): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1';
  checkBind(host, options.apiKey);
  const app = createApp(root, options);
  let handle: ServerHandle;
  try {
    handle = await listen(app.router, { host, port: options.port ?? 8080 });
  } catch (err) {
    await app.close();
    // the listener names the address; here the flag that set it is known
    if (isArenaError(err) && err.code === 'port_in_use')
      throw new UsageError(err.message, {
        code: 'port_in_use',
        hint: 'pick another with --port, or --port 0 for a free one',
        cause: err,
      });
    throw err;
  }
  return {
    url: handle.url,
    host: handle.host,
    port: handle.port,
    isAuthEnabled: app.router.isAuthEnabled,
    app,
    handle,
    async close(reason) {
      await handle.close(reason);
      await app.close();
    },
  };
}
