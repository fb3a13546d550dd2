/** What a route handler receives: the parsed request and a few reply helpers. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readBody, parseJsonBody } from '../shared/json-body.js';
import { sendJson } from '../shared/http/respond.js';
import { SseStream, type SseOptions } from './sse.js';

export interface RequestContext {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly method: string;
  /** raw path without the query string */
  readonly path: string;
  /** decoded path parameters */
  readonly params: Record<string, string>;
  readonly query: URLSearchParams;
  /** aborted when the response closes (client went away or the reply finished) or the server starts shutting down */
  readonly signal: AbortSignal;
  body(): Promise<Buffer>;
  text(): Promise<string>;
  /** the body parsed as JSON (400 when empty or unparsable, 413 when over the limit) */
  json(): Promise<unknown>;
  /** like json() but an empty body gives `undefined` instead of a 400 */
  optionalJson(): Promise<unknown>;
  send(status: number, body: unknown, headers?: Record<string, string>): void;
  /** starts an event stream on this response; it is closed with a final event on shutdown */
  sse(options?: SseOptions): SseStream;
  /**
   * Says the handler is about to do what cannot be undone (apply a fault, then record it): throws a 503
   * (nothing done) when the server is already shutting down, and otherwise makes the shutdown wait for
   * this handler's own answer rather than answer 503 for it, which could follow its record.
   */
  commit(): void;
}

/** A route handler: a returned value is sent as 200 JSON; nothing sent and nothing returned → 204. */
export type RouteHandler = (ctx: RequestContext) => unknown | Promise<unknown>;

export interface ContextDeps {
  bodyLimit: number;
  sseDefaults: SseOptions;
  corsHeaders: Record<string, string>;
  openStream: (stream: SseStream) => void;
  /** aborted when the server starts shutting down: long requests wrap up and answer (a scenario with its partial report) */
  shutdown: AbortSignal;
  /** RequestContext.commit for this response */
  commit: (res: ServerResponse) => void;
}

/** a class rather than closures: one of these per request, so it should cost little */
class Context implements RequestContext {
  private bodyPromise: Promise<Buffer> | undefined;
  private controller: AbortController | undefined;
  private parsedQuery: URLSearchParams | undefined;

  constructor(
    readonly req: IncomingMessage,
    readonly res: ServerResponse,
    readonly path: string,
    private readonly queryString: string,
    readonly params: Record<string, string>,
    private readonly deps: ContextDeps,
  ) {}

  get method(): string {
    return this.req.method ?? 'GET';
  }

  get query(): URLSearchParams {
    return (this.parsedQuery ??= new URLSearchParams(this.queryString));
  }

  get signal(): AbortSignal {
    if (!this.controller) {
      const c = (this.controller = new AbortController());
      const shutdown = this.deps.shutdown;
      if (this.res.closed) c.abort(new Error('response closed'));
      else if (shutdown.aborted) c.abort(shutdown.reason);
      else {
        const onShutdown = () => c.abort(shutdown.reason);
        shutdown.addEventListener('abort', onShutdown, { once: true });
        this.res.once('close', () => {
          shutdown.removeEventListener('abort', onShutdown);
          c.abort(new Error('response closed'));
        });
      }
    }
    return this.controller.signal;
  }

  body(): Promise<Buffer> {
    return (this.bodyPromise ??= readBody(this.req, this.deps.bodyLimit));
  }

  async text(): Promise<string> {
    return (await this.body()).toString('utf8');
  }

  async json(): Promise<unknown> {
    return parseJsonBody(await this.text());
  }

  async optionalJson(): Promise<unknown> {
    const t = await this.text();
    return t.trim() === '' ? undefined : parseJsonBody(t);
  }

  send(status: number, payload: unknown, headers?: Record<string, string>): void {
    sendJson(this.res, status, payload, headers ? { ...this.deps.corsHeaders, ...headers } : this.deps.corsHeaders);
  }

  commit(): void {
    this.deps.commit(this.res);
  }

  sse(options: SseOptions = {}): SseStream {
    const stream = new SseStream(this.res, {
      ...this.deps.sseDefaults,
      ...options,
      headers: { ...this.deps.corsHeaders, ...options.headers },
    });
    this.deps.openStream(stream);
    return stream;
  }
}

export function createContext(
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  queryString: string,
  params: Record<string, string>,
  deps: ContextDeps,
): RequestContext {
  return new Context(req, res, path, queryString, params, deps);
}
