/**
 * The arena's HTTP routes (DESIGN §7), served under /arena/... and again
 * under /api/v1/arena/.... An action answers 200 with its Result, or 422 with
 * the Result when the fault could not be applied. Scenario runs, survival and
 * the flight recorder are plugged in by whoever assembles the server (the
 * bootstrap); a capability not plugged in answers 503 `not_configured`.
 */
import { UsageError } from '../shared/errors.js';
import { parseAction } from '../arena/actions.js';
import type { Action, ActionType, Result } from '../arena/action.js';
import type { IncomingHttpHeaders } from 'node:http';
import { ARENA_STREAM, type ArenaService } from '../arena/service.js';
import { apiKeyCheck, type KeyCheck } from '../shared/api-key.js';
import type { RequestContext, RouteHandler } from './context.js';
import { HttpError, UnauthorizedError } from './errors.js';
import { serveArenaStream, type ArenaStreamOptions } from './arena-stream.js';
import { presentedKey } from './middleware/auth.js';
import { startScoreTracker, type ScoreTracker } from './arena-score.js';
import type { Awaitable } from './groups/input.js';
import { optionalBody, z } from './body.js';
import { FAULT_ROUTES, type FaultRoute } from './arena-fault-routes.js';
import type { Routes } from './routes.js';
import { parseSurvivalRequest, scenarioRunOptions, type SurvivalRequest } from './arena-requests.js';
import { assertKnownTargets, targetNames, unknownTargetProblems } from '../arena/target-names.js';

export type { SurvivalRequest } from './arena-requests.js';

export interface ScenarioRunner {
  /** `{valid, errors[]}` for a scenario given as YAML or JSON text */
  validate(text: string): Awaitable<{ valid: boolean; errors: unknown[] }>;
  /** runs it on the served target and returns the report; UsageError when invalid, ConflictError when a run is going */
  run(text: string, signal: AbortSignal, options?: { seed?: number; timeScale?: number }): Promise<unknown>;
}

export interface SurvivalRunner {
  /** starts in the background; ConflictError (409) when one is running */
  start(request: SurvivalRequest): Awaitable<unknown>;
  status(): Awaitable<unknown>;
  /** stops a running survival; resolves with its (partial) report */
  stop(): Promise<unknown>;
  /** the last finished report; NotFoundError when none */
  report(): Awaitable<unknown>;
}

export interface ArenaFlightView {
  /** query-string filters as given (limit, since, agent, type, …); UsageError when invalid */
  timeline(query: Record<string, string>): Awaitable<unknown>;
  diagnostics(query: Record<string, string>): Awaitable<unknown>;
}

export interface DashboardView {
  snapshot(): Promise<unknown>;
}

/** told a fault injected on its own (not by a run), with the request's headers (a `traceparent` to parent it to) */
export type FaultListener = (result: Result, headers: IncomingHttpHeaders) => void;

export interface ArenaHandlerOptions extends ArenaStreamOptions {
  /** arena routes then need this key even when the router has none (both apply when both are set) */
  apiKey?: string;
  dashboard?: DashboardView;
  scenarios?: ScenarioRunner;
  survival?: SurvivalRunner;
  flight?: ArenaFlightView;
  /** whether this server patches its runtime's strategy live (`arena serve --evolve`) and what it did */
  liveEvolution?: { status(): unknown };
  /** `POST /arena/stop`: stops every run this server runs and reverts every active fault, at once (DESIGN §16) */
  emergencyStop?: (why: string) => Promise<unknown>;
  /** told each fault the fault routes injected one by one (`arena serve --otlp`: a span each) */
  onFault?: FaultListener;
}

const notConfigured = (what: string) =>
  new HttpError(503, 'not_configured', `${what} is not configured on this server`);

/** routes that take no body refuse one rather than ignore it */
const NONE = z.strictObject({});

export class ArenaHandler {
  private readonly keyCheck: KeyCheck | undefined;
  private readonly scenarios?: ScenarioRunner;
  private readonly survival?: SurvivalRunner;
  private readonly flight?: ArenaFlightView;
  private readonly dashboard?: DashboardView;
  private readonly liveEvolution?: { status(): unknown };
  private readonly emergencyStop?: (why: string) => Promise<unknown>;
  private readonly onFault?: FaultListener;
  private tracker: ScoreTracker | undefined;
  private readonly streamOptions: ArenaStreamOptions;

  constructor(
    readonly service: ArenaService,
    options: ArenaHandlerOptions = {},
  ) {
    this.keyCheck = options.apiKey ? apiKeyCheck(options.apiKey) : undefined;
    this.scenarios = options.scenarios;
    this.survival = options.survival;
    this.flight = options.flight;
    this.dashboard = options.dashboard;
    this.liveEvolution = options.liveEvolution;
    this.emergencyStop = options.emergencyStop;
    this.onFault = options.onFault;
    this.streamOptions = { replayLimit: options.replayLimit };
  }

  /** the live score this server measures (GET /arena/score without checks); undefined without an observer */
  liveScore(): Promise<Record<string, unknown>> | undefined {
    return this.tracker?.snapshot(false);
  }

  /** stops the score tracker */
  async close(): Promise<void> {
    await this.tracker?.close();
    this.tracker = undefined;
  }

  registerRoutes(router: Routes): void {
    this.tracker ??= startScoreTracker(this.service);
    for (const prefix of ['/arena', '/api/v1/arena']) {
      const post = (path: string, h: RouteHandler) => router.post(prefix + path, this.guard(h));
      const get = (path: string, h: RouteHandler) => router.get(prefix + path, this.guard(h));

      for (const [type, route] of Object.entries(FAULT_ROUTES) as Array<[ActionType, FaultRoute]>) {
        post(route.path, async (ctx) => this.run(ctx, { type, ...(await route.action(ctx)) }));
      }
      post('/actions', async (ctx) => this.run(ctx, await ctx.json(), 'body'));

      get('/history', () => ({ results: this.service.history() }));
      get('/stats', () => this.service.stats());
      get('/metrics', () => this.service.metrics());
      get('/score', async (ctx) => {
        if (!this.tracker) throw notConfigured('score measurement (the arena service has no target observer)');
        const checks = ctx.query.get('checks');
        if (checks !== null && !['true', 'false', '1', '0'].includes(checks)) {
          throw new UsageError(`query parameter checks must be true or false, got "${checks}"`, {
            code: 'invalid_input',
          });
        }
        return this.tracker.snapshot(checks === 'true' || checks === '1');
      });
      get('/score/history', () => {
        if (!this.tracker) throw notConfigured('score measurement (the arena service has no target observer)');
        return this.tracker.history();
      });

      post('/scenario/validate', async (ctx) => {
        if (!this.scenarios) throw notConfigured('scenario validation');
        return this.scenarios.validate(await this.scenarioText(ctx));
      });
      post('/scenario/run', async (ctx) => {
        if (!this.scenarios) throw notConfigured('scenario running');
        return this.scenarios.run(await this.scenarioText(ctx), ctx.signal, scenarioRunOptions(ctx.query));
      });

      post('/survival', async (ctx) => {
        if (!this.survival) throw notConfigured('survival');
        ctx.send(202, await this.survival.start(parseSurvivalRequest(await ctx.optionalJson())));
      });
      get('/survival/status', () => {
        if (!this.survival) throw notConfigured('survival');
        return this.survival.status();
      });
      post('/survival/stop', async (ctx) => {
        await optionalBody(ctx, NONE);
        if (!this.survival) throw notConfigured('survival');
        return this.survival.stop();
      });
      post('/stop', async (ctx) => {
        await optionalBody(ctx, NONE);
        if (!this.emergencyStop) throw notConfigured('the emergency stop');
        return this.emergencyStop('POST /arena/stop');
      });
      get('/survival/report', () => {
        if (!this.survival) throw notConfigured('survival');
        return this.survival.report();
      });

      get('/flight/timeline', (ctx) => {
        if (!this.flight) throw notConfigured('the flight recorder');
        return this.flight.timeline(Object.fromEntries(ctx.query));
      });
      get('/flight/diagnostics', (ctx) => {
        if (!this.flight) throw notConfigured('the flight recorder');
        return this.flight.diagnostics(Object.fromEntries(ctx.query));
      });

      get('/evolution', () => {
        if (!this.liveEvolution) throw notConfigured('live evolution');
        return this.liveEvolution.status();
      });

      get('/dashboard', () => {
        if (!this.dashboard) throw notConfigured('the dashboard');
        return this.dashboard.snapshot();
      });
      // a live dashboard: one snapshot every interval_ms (default 1000, 100..60000)
      get('/dashboard/stream', async (ctx) => {
        const dashboard = this.dashboard;
        if (!dashboard) throw notConfigured('the dashboard');
        const raw = ctx.query.get('interval_ms') ?? '1000';
        const interval = Number(raw);
        if (!(Number.isInteger(interval) && interval >= 100 && interval <= 60_000)) {
          throw new UsageError(`query parameter interval_ms must be an integer from 100 to 60000, got "${raw}"`, {
            code: 'invalid_input',
          });
        }
        const stream = ctx.sse();
        let id = 0;
        // a snapshot still being read (a remote target) makes the next tick skip, not pile up
        let isTaking = false;
        const tick = () => {
          if (isTaking) return;
          isTaking = true;
          void dashboard
            .snapshot()
            .then((data) => stream.send({ event: 'snapshot', id: ++id, data }))
            .catch(() => undefined)
            .finally(() => {
              isTaking = false;
            });
        };
        tick();
        const timer = setInterval(tick, interval);
        timer.unref();
        await new Promise<void>((resolve) => stream.onClose(resolve));
        clearInterval(timer);
      });
      get('/stream', async (ctx) => {
        const store = this.service.eventStore;
        if (!store) throw notConfigured('the arena event stream (no event store)');
        await serveArenaStream(ctx, store, ARENA_STREAM, this.streamOptions);
      });
    }
  }

  private guard(handler: RouteHandler): RouteHandler {
    return (ctx) => {
      if (this.keyCheck && !this.keyCheck(presentedKey(ctx.req.headers))) throw new UnauthorizedError();
      return handler(ctx);
    };
  }

  private async run(ctx: RequestContext, input: unknown, path = 'action'): Promise<void> {
    const action: Action = parseAction(input, path);
    // an agent, node or edge the target does not have is a bad request: refused before anything is injected
    assertKnownTargets(
      unknownTargetProblems([{ path, action }], await targetNames(this.service.injector)),
      `${action.type}`,
      'the target',
    );
    // from here the fault is applied and recorded: refused now if the server is stopping, else answered truthfully
    ctx.commit();
    let result: Result;
    try {
      result = await this.service.execute(action);
    } catch (err) {
      // it ran but the event store did not take it (event_not_recorded): it still happened
      const ran = (err as { details?: { result?: Result } }).details?.result;
      if (ran) this.tell(ran, ctx);
      throw err;
    }
    this.tell(result, ctx);
    this.reply(ctx, result);
  }

  /** the fault listener (a tracer) is told; its failure never changes the answer of an action that ran */
  private tell(result: Result, ctx: RequestContext): void {
    try {
      this.onFault?.(result, ctx.req.headers);
    } catch {
      // a lost span is the tracer's loss; a 500 here would say an action in the store did not happen
    }
  }

  /** 200 with the Result; 422 when the request was fine but the fault could not be applied */
  private reply(ctx: RequestContext, result: Result): void {
    ctx.send(result.success ? 200 : 422, result);
  }

  private async scenarioText(ctx: RequestContext): Promise<string> {
    const text = await ctx.text();
    if (text.trim() === '')
      throw new UsageError('request body is empty: send the scenario as YAML or JSON', { code: 'invalid_scenario' });
    return text;
  }
}
