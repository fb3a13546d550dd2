/**
 * The request pipeline: each middleware sees the request (an Exchange) and
 * either answers it or passes it on with `next`. The chain is composed once,
 * when the server starts, so a request costs a few calls and no closures.
 * A step returns a promise only when it did asynchronous work: answering in
 * the same tick as the request keeps node's write batching.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { KeyCheck } from '../shared/api-key.js';
import type { ConsoleFiles } from './console-files.js';
import type { RouteHandler } from './context.js';
import type { RouteEntry } from '../shared/http/route-table.js';

/** one request on its way through the middleware */
export interface Exchange {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly method: string;
  /** raw (still %-encoded) path without the query string */
  readonly path: string;
  readonly queryString: string;
  /** CORS headers every answer carries (none unless the origin is allowed) */
  cors: Record<string, string>;
  /** set by the route stage once the path and method matched */
  route: RouteEntry<RouteHandler> | undefined;
  params: Record<string, string>;
}

/**
 * What the middleware read on every request rather than when the chain is
 * composed, so a router configured after it started listening still obeys.
 */
export interface PipelineSettings {
  /** undefined: auth off */
  keyCheck?: KeyCheck | undefined;
  /** origins whose browsers may call the API; undefined: no CORS headers at all */
  origins?: ReadonlySet<string> | undefined;
  consoleFiles?: ConsoleFiles | undefined;
}

export type Step = void | Promise<void>;
export type Next = (ex: Exchange) => Step;
export type Middleware = (ex: Exchange, next: Next) => Step;

/** shared and never mutated: callers spread it into new objects */
export const NO_HEADERS: Record<string, string> = Object.freeze({}) as Record<string, string>;
const NO_PARAMS: Record<string, string> = Object.freeze({}) as Record<string, string>;

/** `stages` run in order, `last` after them all */
export function compose(stages: readonly Middleware[], last: Next): Next {
  let run = last;
  for (let i = stages.length - 1; i >= 0; i--) {
    const stage = stages[i]!;
    const next = run;
    run = (ex) => stage(ex, next);
  }
  return run;
}

export function createExchange(req: IncomingMessage, res: ServerResponse): Exchange {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  return {
    req,
    res,
    method: req.method ?? 'GET',
    path: q === -1 ? url : url.slice(0, q),
    queryString: q === -1 ? '' : url.slice(q + 1),
    cors: NO_HEADERS,
    route: undefined,
    params: NO_PARAMS,
  };
}
