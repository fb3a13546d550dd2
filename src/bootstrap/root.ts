/**
 * bootstrap(config) assembles the whole graph: event store, target (the
 * embedded runtime by default), arena, conversation memory, retrieval,
 * evaluators, LLM, MCP, workflows, assistants, survival. start() starts it;
 * stop() stops every module in reverse order, waits for in-flight actions,
 * reverts active faults and reports every failure.
 */
import { systemClock } from '../shared/clock.js';
import { createRandom } from '../shared/random.js';
import { ConflictError, UsageError } from '../shared/errors.js';
import { parseAction } from '../arena/actions.js';
import { Injector } from '../arena/injector.js';
import { ArenaService } from '../arena/service.js';
import type { EventStore } from '../arena/event-store.js';
import type { Target } from '../arena/providers.js';
import type { AgentRuntime } from '../runtime/runtime.js';
import type { ConversationMemory } from '../runtime/services/conversation-memory.js';
import type { RetrievalIndex } from '../runtime/services/retrieval.js';
import type { EvalRunner } from '../runtime/services/eval.js';
import type { Assistants } from '../runtime/services/assistants.js';
import { MemoryEventStore } from '../events/memory.js';
import { createEmbeddedTarget, getEmbeddedRuntime } from '../targets/embedded/index.js';
import { createConversationMemory } from '../runtime/services/conversation-memory.js';
import { createRetrievalIndex } from '../runtime/services/retrieval.js';
import { createEvalRunner } from '../runtime/services/eval.js';
import { createAssistants } from '../runtime/services/assistants.js';
import { runAssistantTurn } from '../runtime/services/assistant.js';
import {
  createLlmClient,
  createLocalModel,
  createOpenAICompatibleProvider,
  type LlmProvider,
} from '../runtime/llm/index.js';
import { createMcpSession, inProcessConnector } from '../runtime/mcp/index.js';
import { Lifecycle, RootLifecycleError } from './lifecycle.js';
import { createRuntimePort } from './runtime-port.js';
import { refuseWhileStopped } from './stopped-guard.js';
import { createWorkflows, type WorkflowsPort } from './workflows.js';
import { createSurvivalPort, type SurvivalPort } from './survival.js';
import { createScenariosPort, type ScenariosPort } from './scenarios.js';
import { createEmergencyStop, type EmergencyStop } from './emergency-stop.js';
import { createDashboard, type DashboardPort } from './dashboard.js';
import { createRunLog } from './run-log.js';
import { FlightRecorder, FlightService } from '../flight/index.js';
import {
  EvolutionService,
  createRuntimeEvolution,
  runtimeIdleProbe,
  startLiveEvolution,
  type LiveEvolution,
  type LiveEvolutionStatus,
} from '../evolution/index.js';
import { createSurvivalFitness } from './survival-fitness.js';
import type {
  ArenaPort,
  BootstrapConfig,
  LlmPort,
  McpPort,
  Result,
  RootStatus,
  RuntimePort,
  StreamPort,
} from './types.js';

export { RootLifecycleError };

/** The assembled application. Built by `bootstrap(config)`. */
export interface ArenaRoot {
  readonly isRunning: boolean;
  start(): Promise<void>;
  /** idempotent; throws RootLifecycleError naming every module that failed to stop */
  stop(): Promise<void>;
  /** validates an Action (JSON or object) and runs it through the arena */
  executeArenaAction(action: unknown): Promise<Result>;
  status(): RootStatus;
  readonly arena: ArenaPort;
  readonly runtime: RuntimePort;
  readonly llm: LlmPort;
  readonly mcp: McpPort;
  readonly stream: StreamPort;
  /** what an operator's dashboard shows, as one snapshot */
  readonly dashboard: DashboardPort;
  /** the assembled services behind the HTTP route groups (what createApp mounts), built once by bootstrap */
  readonly services: RootServices;
}

/** The services bootstrap assembles beyond the ports above: what the server's route groups are built on. */
export interface RootServices {
  readonly service: ArenaService;
  readonly eventStore: EventStore;
  readonly target: Target;
  /** undefined when the target is not the embedded runtime */
  readonly runtime?: AgentRuntime;
  readonly memory: ConversationMemory;
  readonly retrieval: RetrievalIndex;
  readonly eval: EvalRunner;
  readonly assistants: Assistants;
  readonly workflows: WorkflowsPort;
  readonly survival: SurvivalPort;
  readonly flight: FlightService;
  readonly scenarios: ScenariosPort;
  readonly evolution: EvolutionService;
  /** undefined when the target has no embedded runtime to evolve */
  readonly runtimeEvolution?: EvolutionService;
  /** whether live patching of the runtime's strategy is on (config.evolve), and what it did */
  liveEvolution(): Record<string, unknown> | LiveEvolutionStatus;
  /** stops the run going on the target and reverts every active fault, at once (DESIGN §16) */
  emergencyStop: EmergencyStop;
}

export async function bootstrap(config: BootstrapConfig = {}): Promise<ArenaRoot> {
  // event store first: the arena appends to it from its first action
  const eventStore: EventStore & { close?: () => void | Promise<void> } = await openEventStore(config);
  try {
    return assemble(config, eventStore);
  } catch (err) {
    // a bad config (e.g. an invalid strategy) must not leave the store open
    await eventStore.close?.();
    throw err;
  }
}

function assemble(config: BootstrapConfig, eventStore: EventStore & { close?: () => void | Promise<void> }): ArenaRoot {
  const clock = config.clock ?? systemClock;
  const seed = config.seed ?? 1;
  const random = createRandom(seed);
  const lifecycle = new Lifecycle();
  const components: string[] = [];
  const inFlight = new Set<Promise<unknown>>();
  let running = false;
  let stopping: Promise<void> | undefined;
  let startedAt: string | null = null;

  components.push('event-store');
  lifecycle.add({ name: 'event-store', stop: () => eventStore.close?.() });

  const target = config.targetFactory
    ? config.targetFactory({ seed, strategy: config.strategy })
    : createEmbeddedTarget({
        seed,
        strategy: config.strategy,
        clock,
        random: random.fork('target'),
        ...(config.workloadRate !== undefined ? { workloadRate: config.workloadRate } : {}),
      });
  const runtime = getEmbeddedRuntime(target);
  // what a state change on the runtime would disturb: a scenario or survival run going on it (409 then)
  const busy = (): string | undefined =>
    survival.isRunning ? 'a survival run' : scenarios.isRunning ? 'a scenario run' : undefined;
  const runtimePort = createRuntimePort(target, runtime, () => running, busy) as RuntimePort & {
    markStarted(on: boolean): void;
  };
  components.push(`target:${target.name}`);

  const injector = new Injector(
    refuseWhileStopped(target.runtime, () => runtimePort.isRunning),
    target.dag ? refuseWhileStopped(target.dag, () => runtimePort.isRunning) : undefined,
  );
  // every arena result lands in the flight recorder's timeline (in the same event store)
  const recorder = new FlightRecorder({ store: eventStore, clock });
  // the runs started through the API, for the console's timeline
  const runLog = createRunLog({ now: () => clock.wallNow() });
  const service = new ArenaService({
    injector,
    observer: target.observer,
    eventStore,
    flightBridge: recorder,
    clock,
    random: random.fork('arena'),
    runListener: (event) => {
      runLog.listener(event);
      config.runListener?.(event);
    },
  });
  const survival = createSurvivalPort(service, target, () => scenarios.isRunning);
  const scenarios = createScenariosPort(service, target, () => survival.isRunning);
  const dashboard = createDashboard({
    service,
    target,
    isScenarioRunning: () => scenarios.isRunning,
    runs: () => runLog.list(),
  });
  components.push('dashboard');
  components.push('arena');
  const flight = new FlightService(recorder, { execute: (action) => root.executeArenaAction(action), busy });
  components.push('flight-recorder');
  // added before the target and arena, so on stop it flushes after their last results came in
  lifecycle.add({ name: 'flight-recorder', stop: () => recorder.flush() });

  const agentIds = new Set<string>();
  lifecycle.add({
    name: 'target',
    start: async () => {
      await target.start();
      // assistants may not take an agent's id; the target's agents are known once it started
      for (const a of await target.runtime.listAgents()) agentIds.add(a.id);
      runtimePort.markStarted(true);
    },
    stop: async () => {
      await target.stop();
      runtimePort.markStarted(false);
    },
  });
  // stopped before the target: no fault may outlive the run, and no action may be cut halfway
  lifecycle.add({
    name: 'arena',
    stop: async () => {
      if (survival.isRunning) await service.stopSurvival();
      await survival.settled();
      await scenarios.stop();
      await Promise.allSettled([...inFlight]);
      await service.revertAll();
    },
  });

  // Evolution: strategy searches on fresh targets. RuntimeEvolution: the coordinator of this runtime's
  // strategy (operator proposals, searches that may apply their best result here) and, only when asked
  // for (config.evolve), live patches from applied faults the runtime did not recover from in time.
  // Failed injections are never learned from: a fault that could not be applied changed nothing.
  const evolution = new EvolutionService({ clock, fitness: createSurvivalFitness });
  const runtimeEvo = runtime ? createRuntimeEvolution(runtime, { clock, store: eventStore }) : undefined;
  let liveEvolution: LiveEvolution | undefined;
  if (config.evolve && runtimeEvo) {
    const observer = target.observer;
    lifecycle.add({
      name: 'live-evolution',
      start: () => void (liveEvolution ??= startLiveEvolution({ service, observer, bridge: runtimeEvo.bridge, clock })),
      stop: async () => {
        await liveEvolution?.stop();
      },
    });
  }
  const runtimeEvolution = runtime
    ? new EvolutionService({
        clock,
        fitness: createSurvivalFitness,
        runtime,
        coordinator: runtimeEvo!.coordinator,
        isIdle: runtimeIdleProbe(runtime, { busy: () => survival.isRunning }),
      })
    : undefined;
  lifecycle.add({
    name: 'evolution',
    stop: async () => {
      await Promise.all([evolution.stop(), runtimeEvolution?.stop()]);
      runtimeEvo?.dispose();
    },
  });
  components.push('evolution', ...(runtimeEvolution ? ['runtime-evolution'] : []));

  const memory = createConversationMemory({ clock });
  const retrieval = createRetrievalIndex({ clock });
  const evaluators = createEvalRunner();
  components.push('memory', 'retrieval', 'eval');

  const llmClient = createLlmClient({
    primary: llmProvider(config, clock),
    fallback: createLocalModel({ name: 'local-fallback', model: 'local-fallback-1', clock }),
    clock,
  });
  const llm: LlmPort = {
    async complete(call, signal) {
      const r = await llmClient.complete({
        messages: call.messages,
        ...(call.model ? { model: call.model } : {}),
        ...(call.max_tokens ? { maxTokens: call.max_tokens } : {}),
        ...(signal ? { signal } : {}),
      });
      return {
        text: r.text,
        provider: r.provider,
        model: r.model,
        usage: {
          prompt_tokens: r.usage.promptTokens,
          completion_tokens: r.usage.completionTokens,
          total_tokens: r.usage.totalTokens,
        },
      };
    },
    stats: () => ({ ...llmClient.stats(), config: llmClient.config(), failure_active: llmClient.failureActive }),
  };
  components.push('llm');

  const mcpSession = createMcpSession({
    connect: inProcessConnector(),
    clock,
    reconnect: { enabled: true, backoffMs: 50, maxBackoffMs: 2000 },
    name: 'root',
  });
  const mcp: McpPort = {
    isConnected: () => mcpSession.isConnected(),
    listTools: async () =>
      (await mcpSession.listTools()).map((t) => ({
        name: t.name,
        ...(t.description ? { description: t.description } : {}),
      })),
    callTool: (name, args) => mcpSession.callTool(name, args),
  };
  lifecycle.add({ name: 'mcp', start: () => mcpSession.connect(), stop: () => mcpSession.close() });
  components.push('mcp');

  const assistantDeps = {
    memory,
    retrieval,
    llm: { complete: (req: Parameters<typeof llmClient.complete>[0]) => llmClient.complete(req) },
  };
  const reserved = (id: string) => agentIds.has(id);
  const assistants = createAssistants({ ...assistantDeps, clock, reserved });
  const stream: StreamPort = { processStream: (input, signal) => runAssistantTurn(assistantDeps, input, signal) };
  const workflows = createWorkflows({ clock, retrieval, llm, evaluators });
  components.push('assistants', 'workflows');

  const track = <T>(p: Promise<T>): Promise<T> => {
    inFlight.add(p);
    void p.then(
      () => inFlight.delete(p),
      () => inFlight.delete(p),
    );
    return p;
  };

  const arena: ArenaPort = {
    execute: (action) => root.executeArenaAction(action),
    history: () => service.history(),
    stats: () => service.stats() as unknown as Record<string, unknown>,
    metrics: () => service.metrics() as unknown as Record<string, unknown>,
    agents: () => target.runtime.listAgents(),
    activeFaults: () => target.runtime.activeFaults(),
    revertAll: () => service.revertAll(),
  };

  const root: ArenaRoot = {
    get isRunning() {
      return running;
    },
    async start() {
      if (stopping) throw new ConflictError('this root was stopped; bootstrap a new one', { code: 'root_stopped' });
      if (running) return;
      await lifecycle.start();
      running = true;
      startedAt = clock.wallNow().toISOString();
    },
    stop() {
      return (stopping ??= (async () => {
        running = false;
        await lifecycle.stop();
      })());
    },
    async executeArenaAction(input) {
      if (!running)
        throw new ConflictError(
          stopping ? 'the arena is shutting down' : 'the arena is not started: call start() first',
          { code: 'not_running' },
        );
      return track(service.execute(parseAction(input)));
    },
    status: () => ({
      running,
      started_at: startedAt,
      target: target.name,
      in_flight_actions: inFlight.size,
      components: [...components],
    }),
    arena,
    runtime: runtimePort,
    llm,
    mcp,
    stream,
    dashboard,
    services: {
      liveEvolution: () =>
        liveEvolution?.status() ?? {
          enabled: false,
          learns_from: null,
          hint: 'start arena serve with --evolve to let applied faults the runtime did not recover from patch its strategy',
        },
      emergencyStop: createEmergencyStop({ service, survival, scenarios }),
      service,
      eventStore,
      target,
      runtime,
      memory,
      retrieval,
      eval: evaluators,
      assistants,
      workflows,
      survival,
      flight,
      scenarios,
      evolution,
      runtimeEvolution,
    },
  };
  return root;
}

function llmProvider(config: BootstrapConfig, clock: BootstrapConfig['clock']): LlmProvider {
  if (!config.llm) return createLocalModel({ name: 'local', clock });
  const { baseUrl, model, apiKeyEnv, timeoutMs } = config.llm;
  if (!/^https?:\/\//.test(baseUrl))
    throw new UsageError(`llm.baseUrl must be an http(s) URL, got "${baseUrl}"`, { code: 'invalid_config' });
  return createOpenAICompatibleProvider({
    baseUrl,
    model,
    ...(apiKeyEnv ? { apiKeyEnv } : {}),
    timeoutMs: timeoutMs ?? 30_000,
  });
}

async function openEventStore(config: BootstrapConfig): Promise<EventStore & { close?: () => void | Promise<void> }> {
  const kind = config.eventStore?.kind ?? 'memory';
  if (kind === 'memory') return new MemoryEventStore();
  if (kind === 'sqlite') {
    const path = (config.eventStore as { path: string }).path;
    // loaded lazily: better-sqlite3 is a native module only this option needs
    const { openSqliteEventStore } = await import('../events/sqlite.js');
    return openSqliteEventStore(path);
  }
  if (kind === 'postgres') {
    const { PostgresEventStore } = await import('../events/postgres.js');
    const store = new PostgresEventStore({
      url: (config.eventStore as { url: string }).url,
      ...(config.clock ? { clock: config.clock } : {}),
    });
    // reach the server and migrate now: a wrong URL fails the start, not the first action
    try {
      await store.ready();
    } catch (err) {
      await store.close();
      throw err;
    }
    return store;
  }
  throw new UsageError(`eventStore.kind must be "memory", "sqlite" or "postgres", got "${String(kind)}"`, {
    code: 'invalid_config',
  });
}
