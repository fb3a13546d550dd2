/**
 * The fault routes of the Arena Target Protocol
 * (`POST/GET /v1/faults`, `DELETE /v1/faults/{id}`, `POST /v1/leases`), plus
 * `GET /v1/stats` and `POST /v1/reset` where the server has them. Used as is
 * by the fault proxies' control ports, and by `arena target serve` beside
 * its other routes. Bodies are validated whole before anything is applied.
 *
 * It runs on the arena's one HTTP stack (../shared/http): the same listener
 * with its origin guard, route table, JSON answers, body reader and error
 * mapping as `arena serve`. What is its own is the bearer token and the
 * protocol's error codes.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { apiKeyCheck } from '../shared/api-key.js';
import { listenHttp, type HttpListener } from '../shared/http/listen.js';
import { errorResponse, sendJson, stderrLogger, type ErrorBody, type Logger } from '../shared/http/respond.js';
import { RouteTable, type Method } from '../shared/http/route-table.js';
import { parseJsonBody, readBody } from '../shared/json-body.js';
import type { FaultRegistry } from './fault-registry.js';
import { ProtocolError, badRequest, parseFaultRequest, parseLeaseRequest } from './wire.js';

export interface RouteInput {
  /** decoded `{name}` segments of the route's path */
  params: Record<string, string>;
  query: URLSearchParams;
}

export type RouteHandler = (req: IncomingMessage, res: ServerResponse, input: RouteInput) => Promise<void>;

export interface ProtocolRoute {
  method: Extract<Method, 'GET' | 'POST' | 'DELETE'>;
  /** a path such as `/v1/faults`, with `{name}` for a segment: `/v1/faults/{id}` */
  path: string;
  handle: RouteHandler;
}

export interface ProtocolServerOptions {
  /** when set, every route needs `Authorization: Bearer <token>` */
  token?: string;
  routes: ProtocolRoute[];
  /** where unexpected errors (500s) are described; stderr by default */
  log?: Logger;
}

export async function readJson(req: IncomingMessage): Promise<unknown> {
  return parseJsonBody((await readBody(req)).toString('utf8'));
}

/** The four fault routes over a registry, plus `POST /v1/reset` (revert everything). */
export function faultRoutes(registry: FaultRegistry): ProtocolRoute[] {
  return [
    {
      method: 'POST',
      path: '/v1/faults',
      handle: async (req, res) => {
        const request = parseFaultRequest(await readJson(req));
        const { status, body } = await registry.add(request);
        sendJson(res, status, body);
      },
    },
    { method: 'GET', path: '/v1/faults', handle: async (_req, res) => sendJson(res, 200, { faults: registry.list() }) },
    {
      method: 'DELETE',
      path: '/v1/faults/{id}',
      handle: async (_req, res, { params }) => {
        const id = params.id!;
        sendJson(res, 200, { id, reverted: await registry.remove(id) });
      },
    },
    {
      method: 'POST',
      path: '/v1/leases',
      handle: async (req, res) => {
        const { ids, lease_ms } = parseLeaseRequest(await readJson(req));
        sendJson(res, 200, { renewed: registry.renew(ids, lease_ms) });
      },
    },
    {
      method: 'POST',
      path: '/v1/reset',
      handle: async (req, res) => {
        const text = (await readBody(req)).toString('utf8').trim();
        if (text !== '' && text !== '{}') throw badRequest('body: /v1/reset takes no body');
        const before = registry.list().length;
        await registry.revertAll();
        sendJson(res, 200, { reverted: before });
      },
    },
  ];
}

/** a thrown value as the protocol's `{error, code}` answer */
function failure(err: unknown, log: Logger): { status: number; body: ErrorBody } {
  if (err instanceof ProtocolError) return { status: err.status, body: { error: err.message, code: err.code } };
  return errorResponse(err, log);
}

/** A request handler for a route table: 401 without the token, 404, 405 with `Allow`, and `{error, code}` for every failure. */
export function protocolHandler(options: ProtocolServerOptions): (req: IncomingMessage, res: ServerResponse) => void {
  const check = options.token === undefined ? undefined : apiKeyCheck(options.token);
  const log = options.log ?? stderrLogger;
  const table = new RouteTable<RouteHandler>();
  for (const route of options.routes) table.add(route.method, route.path, route.handle);
  return (req, res) => {
    void (async () => {
      try {
        const target = req.url ?? '/';
        const q = target.indexOf('?');
        const path = q === -1 ? target : target.slice(0, q);
        if (check) {
          const header = req.headers.authorization ?? '';
          const token = header.startsWith('Bearer ') ? header.slice(7) : undefined;
          if (!check(token)) throw new ProtocolError(401, 'unauthorized', 'missing or invalid bearer token');
        }
        const match = table.match(req.method ?? 'GET', path);
        if (match.kind === 'none') throw new ProtocolError(404, 'not_found', `no route ${path}`);
        if (match.kind === 'method') {
          res.setHeader('allow', match.allow.join(', '));
          throw new ProtocolError(405, 'method_not_allowed', `${req.method} is not allowed on ${path}`);
        }
        const query = new URLSearchParams(q === -1 ? '' : target.slice(q + 1));
        await match.route.handler(req, res, { params: match.params, query });
      } catch (err) {
        const { status, body } = failure(err, log);
        if (!res.headersSent) sendJson(res, status, body);
        else res.destroy();
      }
    })();
  };
}

export type ProtocolServer = HttpListener;

/** Listens on host:port (port 0 = any free port) through the arena's one HTTP listener; a port in use is a UsageError naming it. */
export function listenProtocol(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
  port: number,
  host = '127.0.0.1',
  name = 'port',
): Promise<ProtocolServer> {
  return listenHttp(handler, { host, port, name });
}
