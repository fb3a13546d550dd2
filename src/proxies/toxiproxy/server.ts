/**
 * A Toxiproxy-compatible server (DESIGN §17): the collection of proxies and
 * the REST API on one listener. Returns a handle; it never prints. Whether a
 * host may be bound without a key is the caller's decision (the CLI's).
 */
import { listenProtocol, type ProtocolServer } from '../../protocol/http.js';
import type { Clock } from '../../shared/clock.js';
import { UsageError } from '../../shared/errors.js';
import { parsePopulate } from './bodies.js';
import { ToxiproxyCollection, type ProxyJson } from './collection.js';
import { ToxiproxyApiError } from './errors.js';
import { createToxiproxyHandler } from './handler.js';

export interface ToxiproxyServerOptions {
  host?: string;
  /** 0 picks a free one */
  port: number;
  seed: number;
  apiKey?: string;
  /** proxies to create at start, as `POST /populate` takes them (Toxiproxy's `-config` file) */
  config?: { text: string; where: string };
  clock?: Clock;
  onError?: (err: unknown) => void;
}

export interface ToxiproxyServer {
  url: string;
  port: number;
  collection: ToxiproxyCollection;
  /** the proxies the config created */
  populated: ProxyJson[];
  /** stops the API, then every proxy and its connections */
  close(): Promise<void>;
}

export async function startToxiproxyServer(options: ToxiproxyServerOptions): Promise<ToxiproxyServer> {
  const collection = new ToxiproxyCollection({
    seed: options.seed,
    ...(options.clock ? { clock: options.clock } : {}),
  });
  let populated: ProxyJson[] = [];
  if (options.config) {
    const { text, where } = options.config;
    // a config that does not load stops the start (Toxiproxy logs it and serves without it)
    try {
      const result = await collection.populate(parsePopulate(JSON.parse(text)));
      if (result.error) throw result.error;
      populated = result.proxies;
    } catch (err) {
      await collection.close();
      const why = err instanceof ToxiproxyApiError || err instanceof SyntaxError ? err.message : String(err);
      throw new UsageError(`${where}: ${why}`, { code: 'invalid_config', cause: err });
    }
  }
  let api: ProtocolServer;
  try {
    api = await listenProtocol(
      createToxiproxyHandler({
        collection,
        ...(options.apiKey ? { apiKey: options.apiKey } : {}),
        ...(options.onError ? { onError: options.onError } : {}),
      }),
      options.port,
      options.host ?? '127.0.0.1',
      '--port',
    );
  } catch (err) {
    await collection.close();
    throw err;
  }
  return {
    url: api.url,
    port: api.port,
    collection,
    populated,
    async close() {
      await api.close();
      await collection.close();
    },
  };
}
