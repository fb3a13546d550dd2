/**
 * Toxiproxy's REST API (its api.go routes) as one node:http request handler:
 * the single entry point a listener-wide guard (Origin/Host, DESIGN §7) wraps.
 * Statuses and bodies are Toxiproxy's: 201 on create, 204 on delete and
 * reset, `{"error": message, "status": N}` on failure.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { apiKeyCheck } from '../../shared/api-key.js';
import { parseFaultRequest, parseLeaseRequest, ProtocolError } from '../../protocol/wire.js';
import { isArenaError } from '../../shared/errors.js';
import { readBody } from '../../shared/json-body.js';
import { readJson } from '../../protocol/http.js';
import { parseBodyText, parsePopulate, parseProxyInput } from './bodies.js';
import type { ToxiproxyCollection } from './collection.js';
import { ToxiproxyApiError } from './errors.js';
import { metricsText } from './metrics.js';

/** Toxiproxy's API version this server speaks, with the arena named in semver build metadata (compares equal) */
export const TOXIPROXY_VERSION = '2.12.0+chaos-arena';

export interface ToxiproxyHandlerOptions {
  collection: ToxiproxyCollection;
  /** when set, every route needs `X-API-Key` or `Authorization: Bearer` */
  apiKey?: string;
  /** an unexpected error (a bug): its details go here, never to the client */
  onError?: (err: unknown) => void;
}

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
type Params = string[];
type Handle = (params: Params, req: IncomingMessage, res: ServerResponse) => Promise<void>;

interface Route {
  /** path segments; '*' matches one segment */
  pattern: string[];
  methods: Partial<Record<Method, Handle>>;
}

function send(res: ServerResponse, status: number, body?: unknown, contentType = 'application/json'): void {
  if (body === undefined) {
    res.writeHead(status);
    res.end();
    return;
  }
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, { 'content-type': contentType, 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function sendError(res: ServerResponse, status: number, message: string): void {
  if (res.headersSent) return void res.destroy();
  // http.Error ends the body with a newline
  send(res, status, `${JSON.stringify({ error: message, status })}\n`);
}

async function body(req: IncomingMessage): Promise<unknown> {
  return parseBodyText((await readBody(req)).toString('utf8'));
}

/**
 * The arena's face of each proxy: the Arena Target Protocol's fault routes (DESIGN §10) under
 * `/arena/proxies/{proxy}`, so a process target's agent can name a proxy made through Toxiproxy's API
 * and the arena's faults on it are leased. Errors carry the protocol's `code` beside Toxiproxy's fields.
 */
function arenaRoutes(collection: ToxiproxyCollection): Route[] {
  const guarded =
    (handle: Handle): Handle =>
    async (params, req, res) => {
      try {
        await handle(params, req, res);
      } catch (err) {
        if (err instanceof ProtocolError)
          return send(res, err.status, { error: err.message, code: err.code, status: err.status });
        if (err instanceof ToxiproxyApiError && err.status === 404)
          return send(res, 404, { error: `proxy ${params[0]} not found`, code: 'proxy_not_found', status: 404 });
        throw err;
      }
    };
  return [
    {
      pattern: ['arena', 'proxies', '*', 'v1', 'faults'],
      methods: {
        GET: guarded(async ([name], _req, res) => send(res, 200, { faults: collection.arenaFaults(name!).list() })),
        POST: guarded(async ([name], req, res) => {
          const registry = collection.arenaFaults(name!);
          const { status, body } = await registry.add(parseFaultRequest(await readJson(req)));
          send(res, status, body);
        }),
      },
    },
    {
      pattern: ['arena', 'proxies', '*', 'v1', 'faults', '*'],
      methods: {
        DELETE: guarded(async ([name, id], _req, res) =>
          send(res, 200, { id, reverted: await collection.arenaFaults(name!).remove(id!) }),
        ),
      },
    },
    {
      pattern: ['arena', 'proxies', '*', 'v1', 'leases'],
      methods: {
        POST: guarded(async ([name], req, res) => {
          const registry = collection.arenaFaults(name!);
          const { ids, lease_ms } = parseLeaseRequest(await readJson(req));
          send(res, 200, { renewed: registry.renew(ids, lease_ms) });
        }),
      },
    },
    {
      pattern: ['arena', 'proxies', '*', 'v1', 'stats'],
      methods: { GET: guarded(async ([name], _req, res) => send(res, 200, collection.arenaStats(name!))) },
    },
  ];
}

function routes(collection: ToxiproxyCollection): Route[] {
  const updateProxy: Handle = async ([name], req, res) =>
    send(res, 200, await collection.update(name!, parseProxyInput(await body(req))));
  const updateToxic: Handle = async ([proxy, toxic], req, res) => {
    // Toxiproxy looks the toxic up before it reads the body
    collection.showToxic(proxy!, toxic!);
    send(res, 200, await collection.updateToxic(proxy!, toxic!, await body(req)));
  };
  return [
    {
      pattern: ['reset'],
      methods: { POST: async (_p, _req, res) => send(res, 204, await collection.reset()) },
    },
    {
      pattern: ['proxies'],
      methods: {
        GET: async (_p, _req, res) => send(res, 200, collection.list()),
        POST: async (_p, req, res) => send(res, 201, await collection.create(parseProxyInput(await body(req)))),
      },
    },
    {
      pattern: ['populate'],
      methods: {
        POST: async (_p, req, res) => {
          let result: Awaited<ReturnType<ToxiproxyCollection['populate']>>;
          try {
            result = await collection.populate(parsePopulate(await body(req)));
          } catch (err) {
            if (!(err instanceof ToxiproxyApiError)) throw err;
            result = { proxies: [], error: err };
          }
          // api.go Populate: the error's fields, then what was done before it
          if (result.error) send(res, result.error.status, { ...result.error.body(), proxies: result.proxies });
          else send(res, 201, { proxies: result.proxies });
        },
      },
    },
    {
      pattern: ['proxies', '*'],
      methods: {
        GET: async ([name], _req, res) => send(res, 200, collection.show(name!)),
        POST: updateProxy,
        PATCH: updateProxy,
        DELETE: async ([name], _req, res) => send(res, 204, await collection.remove(name!)),
      },
    },
    {
      pattern: ['proxies', '*', 'toxics'],
      methods: {
        GET: async ([name], _req, res) => send(res, 200, collection.toxics(name!)),
        POST: async ([name], req, res) => {
          collection.show(name!);
          send(res, 200, await collection.addToxic(name!, await body(req)));
        },
      },
    },
    {
      pattern: ['proxies', '*', 'toxics', '*'],
      methods: {
        GET: async ([proxy, toxic], _req, res) => send(res, 200, collection.showToxic(proxy!, toxic!)),
        POST: updateToxic,
        PATCH: updateToxic,
        DELETE: async ([proxy, toxic], _req, res) => send(res, 204, await collection.removeToxic(proxy!, toxic!)),
      },
    },
    {
      pattern: ['version'],
      methods: {
        GET: async (_p, _req, res) =>
          send(res, 200, `{"version": "${TOXIPROXY_VERSION}"}\n`, 'application/json;charset=utf-8'),
      },
    },
    {
      pattern: ['metrics'],
      methods: {
        GET: async (_p, _req, res) =>
          send(res, 200, metricsText(collection.counters()), 'text/plain; version=0.0.4; charset=utf-8'),
      },
    },
  ];
}

/** the route a path names, and the segments its '*' matched; undefined when none does */
function match(table: Route[], segments: string[]): { route: Route; params: Params } | undefined {
  for (const route of table) {
    if (route.pattern.length !== segments.length) continue;
    const params: Params = [];
    if (route.pattern.every((part, i) => (part === '*' ? (params.push(segments[i]!), true) : part === segments[i])))
      return { route, params };
  }
  return undefined;
}

export function createToxiproxyHandler(
  options: ToxiproxyHandlerOptions,
): (req: IncomingMessage, res: ServerResponse) => void {
  const table = [...routes(options.collection), ...arenaRoutes(options.collection)];
  const check = options.apiKey === undefined ? undefined : apiKeyCheck(options.apiKey);
  return (req, res) => {
    void (async () => {
      // Toxiproxy's stopBrowsersMiddleware: a page in a browser must not drive it
      if ((req.headers['user-agent'] ?? '').startsWith('Mozilla/'))
        return send(res, 403, 'User agent not allowed\n', 'text/plain; charset=utf-8');
      if (check) {
        const auth = req.headers.authorization ?? '';
        const given = req.headers['x-api-key'] ?? (auth.startsWith('Bearer ') ? auth.slice(7) : undefined);
        if (!check(given)) return sendError(res, 401, 'missing or invalid API key');
      }
      const path = (req.url ?? '/').split('?')[0]!;
      let segments: string[];
      try {
        segments = path.split('/').slice(1).map(decodeURIComponent);
      } catch {
        return sendError(res, 400, `malformed %-escape in ${path}`);
      }
      const found = match(table, segments);
      if (!found) return sendError(res, 404, `no route ${path}`);
      const handle = found.route.methods[req.method as Method];
      if (!handle) {
        res.setHeader('allow', Object.keys(found.route.methods).join(', '));
        return sendError(res, 405, `${req.method} is not allowed on ${path}`);
      }
      try {
        await handle(found.params, req, res);
      } catch (err) {
        if (err instanceof ToxiproxyApiError) return sendError(res, err.status, err.message);
        if (isArenaError(err) && err.status < 500) return sendError(res, err.status, err.message);
        options.onError?.(err);
        sendError(res, 500, 'internal error');
      }
    })();
  };
}
