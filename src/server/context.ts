/** What a route handler receives: the parsed request and a few reply helpers. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readBody, parseJSONBody } from './body.js';
import { sendJSON } from './http.js';
import { SSEStream, type SSEOptions } from './sse.js';

export interface RequestContext {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly method: string;
  /** raw path without the query string */
  readonly path: string;
  /** decoded path parameters */
  readonly params: Record<string, string>;
  readonly query: URLSearchParams;
  /** aborted when the response closes (client went away or the reply finished) */
  readonly signal: AbortSignal;
  body(): Promise<Buffer>;
  text(): Promise<string>;
  /** the body parsed as JSON (400 when empty or unparsable, 413 when over the limit) */
  json(): Promise<unknown>;
  /** like json() but an empty body gives `undefined` instead of a 400 */
  optionalJSON(): Promise<unknown>;
  send(status: number, body: unknown, headers?: Record<string, string>): void;
  /** starts an event stream on this response; it is closed with a final event on shutdown */
  sse(options?: SSEOptions): SSEStream;
}

/** A route handler: a returned value is sent as 200 JSON; nothing sent and nothing returned → 204. */
export type RouteHandler = (ctx: RequestContext) => unknown | Promise<unknown>;

export interface ContextDeps {
  bodyLimit: number;
  sseDefaults: SSEOptions;
  corsHeaders: Record<string, string>;
  openStream: (stream: SSEStream) => void;
}

export function createContext(
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  queryString: string,
  params: Record<string, string>,
  deps: ContextDeps,
): RequestContext {
  let bodyPromise: Promise<Buffer> | undefined;
  let controller: AbortController | undefined;
  let query: URLSearchParams | undefined;
  const body = () => (bodyPromise ??= readBody(req, deps.bodyLimit));
  const text = async () => (await body()).toString('utf8');
  return {
    req,
    res,
    method: req.method ?? 'GET',
    path,
    params,
    get query() {
      return (query ??= new URLSearchParams(queryString));
    },
    get signal() {
      if (!controller) {
        const c = (controller = new AbortController());
        if (res.closed) c.abort(new Error('response closed'));
        else res.once('close', () => c.abort(new Error('response closed')));
      }
      return controller.signal;
    },
    body,
    text,
    json: async () => parseJSONBody(await text()),
    optionalJSON: async () => {
      const t = await text();
      return t.trim() === '' ? undefined : parseJSONBody(t);
    },
    send: (status, payload, headers = {}) => sendJSON(res, status, payload, { ...deps.corsHeaders, ...headers }),
    sse: (options = {}) => {
      const stream = new SSEStream(res, { ...deps.sseDefaults, ...options, headers: { ...deps.corsHeaders, ...options.headers } });
      deps.openStream(stream);
      return stream;
    },
  };
}
