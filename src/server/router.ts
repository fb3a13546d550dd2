/**
 * The HTTP router on node:http: a route table compiled once, API-key auth on
 * every route, a CORS allow-list with preflight, one error boundary, 503 while
 * shutting down, and the 12 route groups of DESIGN §7.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { apiKeyCheck, type KeyCheck } from '../shared/api-key.js';
import { isArenaError } from '../shared/errors.js';
import { DEFAULT_BODY_LIMIT, checkDeclaredLength } from '../shared/json-body.js';
import { createContext, type ContextDeps, type RouteHandler } from './context.js';
import { ServiceUnavailableError, UnauthorizedError } from './errors.js';
import { sendError, sendJSON, stderrLogger, type Logger } from './http.js';
import { RouteTable, type Method } from './routes.js';
import { answerOptions, corsHeadersFor } from './cors.js';
import type { SSEFrame, SSEOptions, SSEStream } from './sse.js';
import { registerStreamRoutes, type StreamProcessor } from './groups/stream.js';
import { registerAgentRoutes, type AgentService } from './groups/agent.js';
import { registerMemoryRoutes, type MemoryService } from './groups/memory.js';
import { registerRetrievalRoutes, type RetrievalService } from './groups/retrieval.js';
import { registerEvalRoutes, type EvalService } from './groups/eval.js';
import { registerRuntimeRoutes, type RuntimeService } from './groups/runtime.js';
import { registerWorkflowRoutes, type WorkflowAPI } from './groups/workflow.js';
import { registerLLMRoutes, type LLMService } from './groups/llm.js';
import { registerFlightRoutes, type FlightService } from './groups/flight.js';
import { registerEvolutionRoutes, type EvolutionService } from './groups/evolution.js';
import type { ConsoleFiles } from './console-files.js';

export interface RouterOptions {
  log?: Logger;
  /** request body limit in bytes (1 MiB) */
  bodyLimit?: number;
  /** defaults for every event stream (heartbeat interval, queue cap) */
  sse?: SSEOptions;
}

/** Anything that mounts its own routes, such as the ArenaHandler. */
export interface RouteModule {
  registerRoutes(router: Router): void;
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as PromiseLike<unknown> | null)?.then === 'function';
}

/** shared and never mutated: callers spread it into new objects */
const NO_HEADERS: Record<string, string> = Object.freeze({}) as Record<string, string>;

export class Router {
  private readonly table = new RouteTable<RouteHandler>();
  private keyCheck: KeyCheck | undefined;
  private origins: ReadonlySet<string> | undefined;
  private closing = false;
  private readonly streams = new Set<SSEStream>();
  private readonly inFlight = new Set<Promise<unknown>>();
  /** responses of async handlers not yet answered: on a forced shutdown each still gets a 503 */
  private readonly unanswered = new Set<ServerResponse>();
  private readonly shutdownController = new AbortController();
  readonly log: Logger;
  private readonly bodyLimit: number;
  private readonly sseDefaults: SSEOptions;
  private plainDeps: ContextDeps | undefined;
  private consoleFiles: ConsoleFiles | undefined;
  /** the route groups mounted so far, by name */
  readonly groups = new Set<string>();

  constructor(options: RouterOptions = {}) {
    this.log = options.log ?? stderrLogger;
    this.bodyLimit = options.bodyLimit ?? DEFAULT_BODY_LIMIT;
    this.sseDefaults = options.sse ?? {};
  }

  add(method: Method, pattern: string, handler: RouteHandler): this {
    this.table.add(method, pattern, handler);
    return this;
  }
  get(pattern: string, handler: RouteHandler): this {
    return this.add('GET', pattern, handler);
  }
  post(pattern: string, handler: RouteHandler): this {
    return this.add('POST', pattern, handler);
  }
  delete(pattern: string, handler: RouteHandler): this {
    return this.add('DELETE', pattern, handler);
  }

  /** every registered route, in registration order */
  routes(): Array<{ method: Method; pattern: string }> {
    return this.table.routes.map(({ method, pattern }) => ({ method, pattern }));
  }

  /** Every route then needs `X-API-Key: key`; an empty or undefined key turns auth off. */
  withAPIKey(key: string | undefined): this {
    this.keyCheck = key ? apiKeyCheck(key) : undefined;
    return this;
  }

  get isAuthEnabled(): boolean {
    return this.keyCheck !== undefined;
  }

  /** Browsers from these origins may call the API (exact origins such as `http://localhost:3000`). */
  withAllowedOrigins(origins: readonly string[]): this {
    this.origins = new Set(origins);
    return this;
  }

  /** Serves the web console's static files, the only paths answered without a key (DESIGN §11). */
  withConsole(files: ConsoleFiles): this {
    this.consoleFiles = files;
    return this;
  }

  get isClosing(): boolean {
    return this.closing;
  }

  /** open event streams */
  get openStreams(): number {
    return this.streams.size;
  }

  /**
   * Starts shutting down: new requests get 503, every event stream gets a
   * final event and is ended. Resolves when in-flight requests have settled.
   */
  async shutdown(final: SSEFrame = { event: 'shutdown', data: { reason: 'server is shutting down' } }): Promise<void> {
    this.closing = true;
    // requests in flight are told to wrap up (a scenario run ends with its partial report) and answer
    if (!this.shutdownController.signal.aborted) this.shutdownController.abort(new ServiceUnavailableError('server is shutting down'));
    for (const stream of [...this.streams]) stream.close(final);
    await Promise.allSettled([...this.inFlight]);
  }

  /**
   * The last word on a shutdown that ran out of time: every request still
   * without an answer gets a 503 (rather than a dropped connection).
   * Resolves once those answers are flushed.
   */
  async answerUnfinished(): Promise<void> {
    const pending: Array<Promise<void>> = [];
    for (const res of [...this.unanswered]) {
      if (res.headersSent || res.writableEnded) continue;
      pending.push(new Promise<void>((resolve) => res.once('close', resolve).once('finish', resolve)));
      sendJSON(res, 503, { error: 'server shut down before this request finished', code: 'unavailable' }, { Connection: 'close' });
    }
    this.unanswered.clear();
    let timer: NodeJS.Timeout | undefined;
    // a client that does not read its answer cannot hold the shutdown up
    await Promise.race([Promise.all(pending), new Promise<void>((resolve) => (timer = setTimeout(resolve, 500)).unref())]);
    clearTimeout(timer);
  }

  handler(): RequestListener {
    return (req, res) => {
      const cors = this.corsHeaders(req);
      let pending: Promise<void> | void;
      try {
        pending = this.dispatch(req, res, cors);
      } catch (err) {
        return this.fail(res, err, cors);
      }
      // answering in the same tick as the request keeps node's write batching; only async handlers are awaited
      if (pending) {
        this.unanswered.add(res);
        const work = pending.catch((err: unknown) => this.fail(res, err, cors));
        this.inFlight.add(work);
        void work.finally(() => {
          this.inFlight.delete(work);
          this.unanswered.delete(res);
        });
      }
    };
  }

  private dispatch(req: IncomingMessage, res: ServerResponse, cors: Record<string, string>): Promise<void> | void {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q === -1 ? url : url.slice(0, q);
    if (this.closing) throw new ServiceUnavailableError();
    const method = req.method ?? 'GET';
    const isKeyValid = !this.keyCheck || this.keyCheck(req.headers['x-api-key']);
    if (method === 'OPTIONS') return answerOptions(req, res, this.table.allowed(path), path, cors, isKeyValid);
    // the console's static files hold no data: the only paths served without a key
    if (this.consoleFiles?.(req, res, path)) return;
    if (!isKeyValid) throw new UnauthorizedError();
    const match = this.table.match(method, path);
    if (match.kind === 'none') return sendJSON(res, 404, { error: `no route for ${method} ${path}`, code: 'not_found' }, cors);
    if (match.kind === 'method') {
      return sendJSON(res, 405, { error: `method ${method} not allowed on ${path}`, code: 'method_not_allowed' }, { ...cors, Allow: match.allow.join(', ') });
    }
    // reject a declared oversize body before the handler runs
    checkDeclaredLength(req, this.bodyLimit);
    const ctx = createContext(req, res, path, q === -1 ? '' : url.slice(q + 1), match.params, this.contextDeps(cors));
    const result = match.route.handler(ctx);
    if (isPromiseLike(result)) return Promise.resolve(result).then((value) => this.reply(res, value, cors));
    this.reply(res, result, cors);
  }

  private reply(res: ServerResponse, result: unknown, cors: Record<string, string>): void {
    if (res.headersSent || res.writableEnded) return;
    if (result === undefined) {
      res.writeHead(204, cors);
      res.end();
    } else sendJSON(res, 200, result, cors);
  }

  private fail(res: ServerResponse, err: unknown, cors: Record<string, string>): void {
    const headers: Record<string, string> = { ...cors };
    // a request cut short by the shutdown (an aborted LLM call, a cancelled run) is a 503, not a 500
    if (this.closing && !isArenaError(err)) err = new ServiceUnavailableError('server shut down before this request finished');
    // an unread oversize body: answer, then drop the connection instead of reading a huge upload
    if ((err as { status?: number } | undefined)?.status === 413) headers.Connection = 'close';
    sendError(res, err, this.log, headers);
  }

  private contextDeps(cors: Record<string, string>): ContextDeps {
    // the common case (no CORS headers) shares one deps object across requests
    if (cors === NO_HEADERS) return (this.plainDeps ??= this.buildDeps(cors));
    return this.buildDeps(cors);
  }

  private buildDeps(cors: Record<string, string>): ContextDeps {
    return {
      bodyLimit: this.bodyLimit,
      sseDefaults: this.sseDefaults,
      corsHeaders: cors,
      shutdown: this.shutdownController.signal,
      openStream: (stream) => {
        this.streams.add(stream);
        stream.onClose(() => this.streams.delete(stream));
      },
    };
  }

  private corsHeaders(req: IncomingMessage): Record<string, string> {
    return corsHeadersFor(req, this.origins, NO_HEADERS);
  }

  // ---- the 12 route groups (DESIGN §7) ----

  registerStreamEndpoints(processor: StreamProcessor): this {
    return this.mount('stream', () => registerStreamRoutes(this, processor));
  }
  /** alias: the stream group has one endpoint */
  registerStreamEndpoint(processor: StreamProcessor): this {
    return this.registerStreamEndpoints(processor);
  }
  registerEvolutionEndpoints(service: EvolutionService): this {
    return this.mount('evolution', () => registerEvolutionRoutes(this, '/api/v1/evolution', service));
  }
  registerRuntimeEvolutionEndpoints(service: EvolutionService): this {
    return this.mount('runtime-evolution', () => registerEvolutionRoutes(this, '/api/v1/runtime-evolution', service));
  }
  registerWorkflowEndpoints(service: WorkflowAPI): this {
    return this.mount('workflow', () => registerWorkflowRoutes(this, service));
  }
  registerAgentEndpoints(service: AgentService): this {
    return this.mount('agent', () => registerAgentRoutes(this, service));
  }
  registerMemoryEndpoints(service: MemoryService): this {
    return this.mount('memory', () => registerMemoryRoutes(this, service));
  }
  /** the arena routes are the ArenaHandler's; it mounts them under /arena and /api/v1/arena */
  registerArenaEndpoints(handler: RouteModule): this {
    return this.mount('arena', () => handler.registerRoutes(this));
  }
  registerRuntimeEndpoints(service: RuntimeService): this {
    return this.mount('runtime', () => registerRuntimeRoutes(this, service));
  }
  registerRetrievalEndpoints(service: RetrievalService): this {
    return this.mount('retrieval', () => registerRetrievalRoutes(this, service));
  }
  registerEvalEndpoints(service: EvalService): this {
    return this.mount('eval', () => registerEvalRoutes(this, service));
  }
  registerFlightEndpoints(service: FlightService): this {
    return this.mount('flight', () => registerFlightRoutes(this, service));
  }
  registerLLMEndpoints(service: LLMService): this {
    return this.mount('llm', () => registerLLMRoutes(this, service));
  }

  private mount(group: string, register: () => void): this {
    if (this.groups.has(group)) throw new Error(`route group ${group} registered twice`);
    register();
    this.groups.add(group);
    return this;
  }
}
