/**
 * The route table's two stages: `matchRoute` finds the handler for the method
 * and path (404 for no route, 405 with `Allow` for a path that has other
 * methods, 400 for a malformed %-escape), and `invokeHandler`, last in the
 * chain, runs it: a returned value is sent as 200 JSON, nothing at all as 204.
 */
import type { ServerResponse } from 'node:http';
import { createContext, type ContextDeps, type RouteHandler } from '../context.js';
import { sendJson } from '../../shared/http/respond.js';
import { NO_HEADERS, type Middleware, type Next } from '../pipeline.js';
import type { RouteTable } from '../../shared/http/route-table.js';

export function matchRoute(table: RouteTable<RouteHandler>): Middleware {
  return (ex, next) => {
    const { method, path } = ex;
    const match = table.match(method, path);
    if (match.kind === 'none')
      return sendJson(ex.res, 404, { error: `no route for ${method} ${path}`, code: 'not_found' }, ex.cors);
    if (match.kind === 'method') {
      return sendJson(
        ex.res,
        405,
        { error: `method ${method} not allowed on ${path}`, code: 'method_not_allowed' },
        { ...ex.cors, Allow: match.allow.join(', ') },
      );
    }
    ex.route = match.route;
    ex.params = match.params;
    return next(ex);
  };
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as PromiseLike<unknown> | null)?.then === 'function';
}

function reply(res: ServerResponse, result: unknown, cors: Record<string, string>): void {
  if (res.headersSent || res.writableEnded) return;
  if (result === undefined) {
    res.writeHead(204, cors);
    res.end();
  } else sendJson(res, 200, result, cors);
}

/** `deps`: what every request context shares except its CORS headers */
export function invokeHandler(deps: Omit<ContextDeps, 'corsHeaders'>): Next {
  // the common case (no CORS headers) shares one deps object across requests
  const plain: ContextDeps = { ...deps, corsHeaders: NO_HEADERS };
  return (ex) => {
    const { res, cors } = ex;
    const ctxDeps = cors === NO_HEADERS ? plain : { ...deps, corsHeaders: cors };
    const ctx = createContext(ex.req, res, ex.path, ex.queryString, ex.params, ctxDeps);
    const result = ex.route!.handler(ctx);
    if (isPromiseLike(result)) return Promise.resolve(result).then((value) => reply(res, value, cors));
    reply(res, result, cors);
  };
}
