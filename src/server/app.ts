/**
 * The whole HTTP API for a bootstrapped root: the 12 route groups of DESIGN
 * §7 mounted on one router, each on the root's working services.
 */
import { UsageError } from '../shared/errors.js';
import type { ArenaRoot } from '../bootstrap/index.js';
import { ArenaHandler, type FaultListener } from './arena-handler.js';
import { Router, type RouterOptions } from './router.js';
import type { Logger } from '../shared/http/respond.js';
import type { SseOptions } from './sse.js';
import { consoleFiles } from './console-files.js';
import { ROUTE_GROUPS } from './groups/index.js';
import { registerRegressRoutes } from './regress-route.js';
import { registerShrinkRoutes } from './shrink-route.js';
import { registerTrialsRoutes } from './trials-route.js';
import { feedFromArena, runVerdict, type LiveScoreView } from './metrics/arena-source.js';
import { countLedgerTokens, loadArenaMetrics } from '../protocol/metrics.js';
import { registerMetricsRoute } from './metrics/route.js';

export interface AppOptions {
  apiKey?: string;
  allowedOrigins?: readonly string[];
  log?: Logger;
  sse?: SseOptions;
  bodyLimit?: number;
  /** where the built web console is (default dist/web); false serves no console */
  consoleDir?: string | false;
  /** told each fault the fault routes inject one by one, with the request's headers (`--otlp`: a span each) */
  onFault?: FaultListener;
}

export interface App {
  router: Router;
  arena: ArenaHandler;
  /** route groups that are mounted */
  groups: string[];
  /** route groups left out because the service behind them is not built yet */
  missing: string[];
  close(): Promise<void>;
}

export { ROUTE_GROUPS };

export function createApp(root: ArenaRoot, options: AppOptions = {}): App {
  const routerOptions: RouterOptions = {};
  if (options.log) routerOptions.log = options.log;
  if (options.sse) routerOptions.sse = options.sse;
  if (options.bodyLimit) routerOptions.bodyLimit = options.bodyLimit;
  const router = new Router(routerOptions).withApiKey(options.apiKey);
  if (options.allowedOrigins?.length) router.withAllowedOrigins(options.allowedOrigins);
  if (options.consoleDir !== false) router.withConsole(consoleFiles(options.consoleDir));
  const x = root.services;

  // GET /metrics (DESIGN §17): prom-client loads now, in the background; the feed counts from here on
  const metrics = loadArenaMetrics();
  metrics.catch(() => undefined); // a failed load is the scrape's 500, not an unhandled rejection
  const countRun = (kind: 'scenario' | 'survival', report: unknown) =>
    void metrics.then(
      (m) => m.run(kind, runVerdict(report)),
      () => undefined,
    );

  const arena = new ArenaHandler(x.service, {
    survival: {
      ...x.survival,
      start: async (request) => {
        const status = await x.survival.start(request);
        // counted when it ends, whichever way (finished, stopped, failed)
        void x.survival.settled().then(() => countRun('survival', x.service.getSurvivalReport()));
        return status;
      },
    },
    scenarios: {
      validate: (text) => x.scenarios.validate(text),
      run: async (text, signal, options) => {
        const report = await x.scenarios.run(text, signal, options);
        countRun('scenario', report);
        return report;
      },
    },
    dashboard: root.dashboard,
    liveEvolution: { status: () => x.liveEvolution() },
    emergencyStop: (why) => x.emergencyStop(why),
    ...(options.onFault ? { onFault: options.onFault } : {}),
    flight: { timeline: (q) => x.flight.timeline(q), diagnostics: (q) => x.flight.diagnostics(q) },
  });
  router.registerArenaEndpoints(arena);
  router.registerFlightEndpoints({
    timeline: (q) => x.flight.timeline(q),
    record: (id) => x.flight.record(id),
    diagnostics: (q) => x.flight.diagnostics(q),
    replay: (request, signal) => x.flight.replay(request, signal),
  });
  router.registerStreamEndpoints(root.stream);
  registerRegressRoutes(router, x.eventStore);
  registerTrialsRoutes(router, x.eventStore);
  registerShrinkRoutes(router, x.eventStore);

  router.registerAgentEndpoints({
    list: async () => [
      ...(await x.target.runtime.listAgents()).map((a) => ({ ...a, kind: 'runtime' })),
      ...x.assistants.list(),
    ],
    async get(id) {
      const runtimeAgent = (await x.target.runtime.listAgents()).find((a) => a.id === id);
      return runtimeAgent ? { ...runtimeAgent, kind: 'runtime' } : x.assistants.get(id);
    },
    create: (spec) => x.assistants.create(spec),
    async remove(id) {
      if (!x.assistants.has(id) && (await x.target.runtime.listAgents()).some((a) => a.id === id)) {
        throw new UsageError(
          `agent "${id}" belongs to the runtime topology and cannot be deleted; kill it with POST /api/v1/arena/agent/${id}/kill`,
          { code: 'runtime_agent' },
        );
      }
      x.assistants.remove(id);
    },
    chat: (id, message, signal) => x.assistants.chat(id, message, signal),
  });
  router.registerMemoryEndpoints(x.memory);
  router.registerRetrievalEndpoints(x.retrieval);
  router.registerEvalEndpoints(x.eval);
  router.registerRuntimeEndpoints({
    start: () => root.runtime.start(),
    stop: () => root.runtime.stop(),
    stats: () => root.runtime.stats(),
    agent: (id) => root.runtime.agent(id),
    strategy: () => root.runtime.strategy(),
    updateStrategy: (patch) => root.runtime.updateStrategy(patch),
    mcpTools: () => root.mcp.listTools(),
    callMcpTool: (name, args) => root.mcp.callTool(name, args),
  });
  router.registerWorkflowEndpoints({
    list: () => x.workflows.list(),
    get: (id) => x.workflows.get(id),
    register: (definition) => x.workflows.register(definition),
    execute: (id, input, signal) => x.workflows.execute(id, input, signal),
    executions: (id) => x.workflows.executions(id),
  });
  router.registerEvolutionEndpoints(x.evolution);
  if (x.runtimeEvolution) router.registerRuntimeEvolutionEndpoints(x.runtimeEvolution);
  router.registerLlmEndpoints({
    complete: async (call, signal) => {
      const r = await root.llm.complete(call, signal);
      void metrics.then(
        (m) => {
          m.tokens('input', r.model, r.usage.prompt_tokens);
          m.tokens('output', r.model, r.usage.completion_tokens);
        },
        () => undefined,
      );
      return r;
    },
    stats: () => root.llm.stats(),
  });

  const feed = feedFromArena(metrics, {
    service: x.service,
    activeFaults: () => x.target.runtime.activeFaults(),
    score: () => arena.liveScore() as Promise<unknown> as Promise<LiveScoreView> | undefined,
  });
  // a target with fault proxies (kind: process): the tokens its LLM proxies saw the agents spend
  const calls = x.target.calls;
  if (calls)
    void metrics.then(
      (m) => m.beforeCollect(countLedgerTokens(m, calls)),
      () => undefined,
    );
  registerMetricsRoute(router, () => metrics);

  const groups = [...router.groups];
  return {
    router,
    arena,
    groups,
    missing: ROUTE_GROUPS.filter((g) => !router.groups.has(g)),
    close: () => {
      feed.close();
      return arena.close();
    },
  };
}
