/**
 * The HTTP router on node:http: a route table (./routes.ts) behind a
 * pipeline of middleware (./middleware/), composed once:
 *
 *   CORS headers → in-flight tracking → error boundary → 503 while closing
 *   → OPTIONS → console files → API key → route match (404/405)
 *   → body limit → the handler
 *
 * The open event streams live in a StreamRegistry, the shutdown state in a
 * ShutdownGate; the 12 route groups of DESIGN §7 mount through one `mount`.
 */
import type { RequestListener } from 'node:http';
import { apiKeyCheck } from '../shared/api-key.js';
import { DEFAULT_BODY_LIMIT } from '../shared/json-body.js';
import type { ConsoleFiles } from './console-files.js';
import type { RouteHandler } from './context.js';
import { GROUP_MOUNTS, type RouteGroup, type RouteGroupServices as Services } from './groups/index.js';
import { stderrLogger, type Logger } from '../shared/http/respond.js';
import { consoleFiles, requireKey } from './middleware/auth.js';
import { bodyLimit } from './middleware/body-limit.js';
import { corsHeaders, preflight } from './middleware/cors.js';
import { errorBoundary } from './middleware/errors.js';
import { invokeHandler, matchRoute } from './middleware/route.js';
import { ShutdownGate } from './middleware/shutdown.js';
import { compose, createExchange, type PipelineSettings } from './pipeline.js';
import { RouteTable, type Method } from '../shared/http/route-table.js';
import type { Routes } from './routes.js';
import type { SseFrame, SseOptions } from './sse.js';
import { StreamRegistry } from './stream-registry.js';

export interface RouterOptions {
  log?: Logger;
  /** request body limit in bytes (1 MiB) */
  bodyLimit?: number;
  /** defaults for every event stream (heartbeat interval, queue cap) */
  sse?: SseOptions;
}

export class Router implements Routes {
  private readonly table = new RouteTable<RouteHandler>();
  private readonly settings: PipelineSettings = {};
  private readonly gate = new ShutdownGate();
  private readonly streams = new StreamRegistry();
  readonly log: Logger;
  private readonly bodyLimit: number;
  private readonly sseDefaults: SseOptions;
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
  withApiKey(key: string | undefined): this {
    this.settings.keyCheck = key ? apiKeyCheck(key) : undefined;
    return this;
  }

  get isAuthEnabled(): boolean {
    return this.settings.keyCheck !== undefined;
  }

  /** Browsers from these origins may call the API (exact origins such as `http://localhost:3000`). */
  withAllowedOrigins(origins: readonly string[]): this {
    this.settings.origins = new Set(origins);
    return this;
  }

  /** the origins allowed with withAllowedOrigins (the listener's own origin is always allowed) */
  get allowedOrigins(): ReadonlySet<string> | undefined {
    return this.settings.origins;
  }

  /** Serves the web console's static files, the only paths answered without a key (DESIGN §11). */
  withConsole(files: ConsoleFiles): this {
    this.settings.consoleFiles = files;
    return this;
  }

  get isClosing(): boolean {
    return this.gate.isClosing;
  }

  /** open event streams */
  get openStreams(): number {
    return this.streams.size;
  }

  /**
   * Starts shutting down: new requests get 503, every event stream gets a
   * final event and is ended. Resolves when in-flight requests have settled.
   */
  async shutdown(final: SseFrame = { event: 'shutdown', data: { reason: 'server is shutting down' } }): Promise<void> {
    this.gate.close();
    this.streams.closeAll(final);
    await this.gate.settled();
  }

  /** On a shutdown that ran out of time: every request still without an answer gets a 503 (committed ones excepted). */
  answerUnfinished(): Promise<void> {
    return this.gate.answerUnfinished();
  }

  /** resolves when every committed request has answered for itself, or after `timeoutMs` */
  committedSettled(timeoutMs: number): Promise<void> {
    return this.gate.committedSettled(timeoutMs);
  }

  handler(): RequestListener {
    const { settings, gate, table } = this;
    const run = compose(
      [
        corsHeaders(settings),
        gate.track,
        errorBoundary(this.log, () => gate.isClosing),
        gate.refuseWhileClosing,
        preflight(settings, (path) => table.allowed(path)),
        consoleFiles(settings),
        requireKey(settings),
        matchRoute(table),
        // after the match: an unknown path is a 404 whatever its body
        bodyLimit(this.bodyLimit),
      ],
      invokeHandler({
        bodyLimit: this.bodyLimit,
        sseDefaults: this.sseDefaults,
        shutdown: gate.signal,
        commit: (res) => gate.commit(res),
        openStream: (stream) => this.streams.add(stream),
      }),
    );
    return (req, res) => void run(createExchange(req, res));
  }

  /** mounts one of the 12 route groups; a group mounts once */
  mount<G extends RouteGroup>(group: G, service: Services[G]): this {
    if (this.groups.has(group)) throw new Error(`route group ${group} registered twice`);
    GROUP_MOUNTS[group](this, service);
    this.groups.add(group);
    return this;
  }

  // ---- the seed's public names for the 12 groups (DESIGN §7) ----

  registerStreamEndpoints(processor: Services['stream']): this {
    return this.mount('stream', processor);
  }
  /** alias: the stream group has one endpoint */
  registerStreamEndpoint(processor: Services['stream']): this {
    return this.mount('stream', processor);
  }
  registerEvolutionEndpoints(service: Services['evolution']): this {
    return this.mount('evolution', service);
  }
  registerRuntimeEvolutionEndpoints(service: Services['runtime-evolution']): this {
    return this.mount('runtime-evolution', service);
  }
  registerWorkflowEndpoints(service: Services['workflow']): this {
    return this.mount('workflow', service);
  }
  registerAgentEndpoints(service: Services['agent']): this {
    return this.mount('agent', service);
  }
  registerMemoryEndpoints(service: Services['memory']): this {
    return this.mount('memory', service);
  }
  registerArenaEndpoints(handler: Services['arena']): this {
    return this.mount('arena', handler);
  }
  registerRuntimeEndpoints(service: Services['runtime']): this {
    return this.mount('runtime', service);
  }
  registerRetrievalEndpoints(service: Services['retrieval']): this {
    return this.mount('retrieval', service);
  }
  registerEvalEndpoints(service: Services['eval']): this {
    return this.mount('eval', service);
  }
  registerFlightEndpoints(service: Services['flight']): this {
    return this.mount('flight', service);
  }
  registerLlmEndpoints(service: Services['llm']): this {
    return this.mount('llm', service);
  }
}
