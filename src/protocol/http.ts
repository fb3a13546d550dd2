/**
 * The fault routes of the Arena Target Protocol on `node:http`
 * (`POST/GET /v1/faults`, `DELETE /v1/faults/{id}`, `POST /v1/leases`), plus
 * `GET /v1/stats` and `POST /v1/reset` where the server has them. Used as is
 * by the fault proxies' control ports, and by `arena target serve` beside
 * its other routes. Bodies are validated whole before anything is applied.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { apiKeyCheck } from '../shared/api-key.js';
import { isArenaError, UsageError } from '../shared/errors.js';
import { parseJSONBody, readBody } from '../shared/json-body.js';
import type { FaultRegistry } from './fault-registry.js';
import { ProtocolError, badRequest, parseFaultRequest, parseLeaseRequest, type WireErrorBody } from './wire.js';

export type RouteHandler = (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<void>;

export interface ProtocolRoute {
  method: 'GET' | 'POST' | 'DELETE';
  /** exact path, or a prefix ending in '/' whose remainder is one path segment */
  path: string;
  handle: RouteHandler;
}

export interface ProtocolServerOptions {
  /** when set, every route needs `Authorization: Bearer <token>` */
  token?: string;
  routes: ProtocolRoute[];
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
  });
  res.end(text);
}

export function sendError(res: ServerResponse, status: number, code: string, message: string): void {
  const body: WireErrorBody = { error: message, code };
  if (!res.headersSent) sendJson(res, status, body);
  else res.destroy();
}

export async function readJson(req: IncomingMessage): Promise<unknown> {
  return parseJSONBody((await readBody(req)).toString('utf8'));
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
      path: '/v1/faults/',
      handle: async (_req, res, url) => {
        const id = decodeSegment(url.pathname.slice('/v1/faults/'.length));
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

/** A request handler for a route table: 401 without the token, 405 with `Allow`, 404, and `{error, code}` for every failure. */
export function protocolHandler(options: ProtocolServerOptions): (req: IncomingMessage, res: ServerResponse) => void {
  const check = options.token === undefined ? undefined : apiKeyCheck(options.token);
  return (req, res) => {
    void (async () => {
      let url: URL;
      try {
        url = new URL(req.url ?? '/', 'http://localhost');
      } catch {
        return sendError(res, 400, 'bad_request', 'malformed request target');
      }
      if (check) {
        const header = req.headers.authorization ?? '';
        const token = header.startsWith('Bearer ') ? header.slice(7) : undefined;
        if (!check(token)) return sendError(res, 401, 'unauthorized', 'missing or invalid bearer token');
      }
      const matching = options.routes.filter((r) => matches(r.path, url.pathname));
      if (matching.length === 0) return sendError(res, 404, 'not_found', `no route ${url.pathname}`);
      const route = matching.find((r) => r.method === req.method);
      if (!route) {
        res.setHeader('allow', [...new Set(matching.map((r) => r.method))].join(', '));
        return sendError(res, 405, 'method_not_allowed', `${req.method} is not allowed on ${url.pathname}`);
      }
      try {
        await route.handle(req, res, url);
      } catch (err) {
        if (err instanceof ProtocolError) return sendError(res, err.status, err.code, err.message);
        if (isArenaError(err) && err.status < 500) return sendError(res, err.status, err.code, err.message);
        sendError(res, 500, 'internal', isArenaError(err) ? err.message : 'internal error');
      }
    })();
  };
}

function matches(pattern: string, pathname: string): boolean {
  if (!pattern.endsWith('/')) return pathname === pattern;
  const rest = pathname.slice(pattern.length);
  return pathname.startsWith(pattern) && rest.length > 0 && !rest.includes('/');
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw badRequest(`malformed %-escape in ${segment}`);
  }
}

export interface ProtocolServer {
  server: Server;
  port: number;
  url: string;
  close(): Promise<void>;
}

/** A listen failure as a usage error naming the address: a port in use, a host that is not local. */
export function listenError(err: unknown, host: string, port: number, name = 'port'): unknown {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE')
    return new UsageError(`${name} ${port} on ${host} is already in use`, 'port_in_use', {
      hint: 'pick another port, or 0 for a free one',
    });
  if (code === 'EACCES') return new UsageError(`not allowed to listen on port ${port} on ${host}`, 'port_denied');
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND')
    return new UsageError(`cannot bind ${host}: no such local address`, 'bad_host');
  return err;
}

/** Listens on host:port (port 0 = any free port); a port in use is a UsageError naming it. */
export function listenProtocol(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
  port: number,
  host = '127.0.0.1',
  name = 'port',
): Promise<ProtocolServer> {
  const server = createServer(handler);
  // a malformed request gets the JSON error shape, not Node's empty 400
  server.on('clientError', (_err, socket) => {
    if (socket.writable)
      socket.end(
        'HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\nconnection: close\r\n\r\n{"error":"malformed HTTP request","code":"bad_request"}',
      );
    else socket.destroy();
  });
  return new Promise((resolve, reject) => {
    server.once('error', (err) => reject(listenError(err, host, port, name)));
    server.listen(port, host, () => {
      server.removeAllListeners('error');
      const actual = (server.address() as AddressInfo).port;
      resolve({
        server,
        port: actual,
        url: `http://${host.includes(':') ? `[${host}]` : host}:${actual}`,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}
