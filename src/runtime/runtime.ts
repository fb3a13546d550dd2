/**
 * The embedded agent runtime: workers (one elected leader) and orchestrators
 * (one active, the rest standby), each agent with a task loop, memory, tools,
 * an LLM client and an MCP session; recovery mechanisms configured by one
 * strategy; a steady-state workload measured as it runs.
 */
import { systemClock, type Clock, type TimerHandle } from '../shared/clock.js';
import { createRandom, type Random } from '../shared/random.js';
import { ConflictError } from '../shared/errors.js';
import { createAgent, type Agent, type AgentState } from './agent.js';
import { every, getAgent, type Cluster } from './cluster.js';
import { createLiveDag, type LiveDag } from './dag.js';
import { electionTick } from './election.js';
import { runtimeHealth, type RuntimeHealth, type RuntimeHealthScope } from './health.js';

export type { RuntimeHealth, RuntimeHealthScope } from './health.js';
import { createRecoveryLog, type RecoveryEvent } from './events.js';
import { failoverTick, heartbeatTick } from './failover.js';
import { createLedger, type Ledger, type RunRecord, type WorkloadStats } from './ledger.js';
import { checkpointTick, integrityTick } from './maintenance.js';
import { createAgentMemory } from './memory/index.js';
import { STEADY_STATE_WORKFLOW } from './steady-state.js';
import { mergeStrategy, parseStrategy, parseStrategyPatch, crossCheck, type Strategy } from './strategy.js';
import { createSubsystems } from './subsystems.js';
import type { CallLedger } from '../protocol/calls.js';
import { createSupervisor } from './supervisor.js';
import { agentSpecs, parseTopology, type Topology } from './topology.js';
import { createWorkload, type Workload } from './workload.js';
import { createMarkerBook, type MarkerBook } from '../protocol/markers.js';
import { UsageError } from '../shared/errors.js';
import type { WorkflowDefinition } from '../workflow/index.js';

export type RuntimeRole = 'leader' | 'worker' | 'orchestrator' | 'standby';

export interface RuntimeAgentInfo {
  id: string;
  role: RuntimeRole;
  status: AgentState;
  restarts: number;
}

export interface CreateRuntimeOptions {
  /** a Strategy, or a partial one (validated; UsageError when invalid) */
  strategy?: unknown;
  topology?: Partial<Topology>;
  clock?: Clock;
  random?: Random;
  seed?: number;
  /** task-loop concurrency per agent (default 16) */
  concurrency?: number;
  /** where every agent's LLM attempts are recorded (the embedded target's Target.calls) */
  calls?: CallLedger;
}

export interface AgentRuntime {
  start(): void;
  stop(): Promise<void>;
  readonly isRunning: boolean;
  agents(): RuntimeAgentInfo[];
  /** the agent handle (for faults and tests); NotFoundError when unknown */
  agent(id: string): Agent;
  leaderId(): string | undefined;
  activeOrchestratorId(): string | undefined;
  strategy(): Strategy;
  /** validates and applies a partial strategy to the running runtime; returns the strategy now in force */
  updateStrategy(patch: unknown): Strategy;
  stats(): WorkloadStats;
  recentRuns(limit?: number): RunRecord[];
  events(since?: number): RecoveryEvent[];
  onEvent(listener: (event: RecoveryEvent) => void): () => void;
  health(scope?: RuntimeHealthScope): RuntimeHealth;
  readonly dag: LiveDag;
  readonly ledger: Ledger;
  /** the markers tool_fault planted in tool results, and where they were seen since (DESIGN §13.3) */
  readonly markers: MarkerBook;
  readonly topology: Topology;
  /** submits one workload run now (besides the paced ones) */
  submitRun(): Promise<boolean>;
  /** the runtime's recovery hooks the fault layer calls */
  readonly cluster: Cluster;
  /** called after an agent is killed: lets the supervisor decide */
  noticeDeath(agent: Agent): void;
  /** called after the DAG was damaged: schedules restore when on */
  noticeDagDamage(): void;
}

export function createRuntime(options: CreateRuntimeOptions = {}): AgentRuntime {
  const clock = options.clock ?? systemClock;
  const random = options.random ?? createRandom(options.seed ?? 1);
  const topology = parseTopology(options.topology);
  const initial = parseStrategy(options.strategy);
  const log = createRecoveryLog(clock);
  const ledger = createLedger();
  const dag = createLiveDag(STEADY_STATE_WORKFLOW as WorkflowDefinition);

  const markers = createMarkerBook();
  const cluster: Cluster = {
    clock,
    random: random.fork('runtime'),
    strategy: initial,
    agents: new Map(),
    workers: [],
    orchestrators: [],
    log,
    orchestratorEpoch: 1,
    running: false,
    buildSubsystems: (agent) =>
      createSubsystems({
        clock,
        strategy: cluster.strategy,
        agentId: agent.id,
        onLlmChanged: ({ fault_id, values }) => {
          for (const value of values) markers.add(fault_id, value, 'value', 'llm');
        },
        calls: options.calls,
        onToolChanged: ({ fault_id, marker }) => {
          if (marker)
            markers.add(fault_id, marker, marker.startsWith('ARENA-CANARY-') ? 'canary' : 'signature', 'tools');
        },
      }),
  };
  for (const spec of agentSpecs(topology)) {
    const agent = createAgent({
      id: spec.id,
      kind: spec.kind,
      clock,
      memory: createAgentMemory({ clock }),
      subsystems: cluster.buildSubsystems(spec),
      concurrency: options.concurrency,
    });
    cluster.agents.set(spec.id, agent);
    (spec.kind === 'worker' ? cluster.workers : cluster.orchestrators).push(agent);
  }
  cluster.activeOrchestratorId = cluster.orchestrators[0]!.id;
  cluster.activeOrchestrator = { incarnation: 0, renewedAt: clock.now() };

  const supervisor = createSupervisor(cluster);
  const workload: Workload = createWorkload(cluster, dag, ledger, markers);
  let timers: TimerHandle[] = [];
  let stoppedBefore = false;
  let dagRestore: TimerHandle | undefined;

  const scheduleDagRestore = () => {
    const s = cluster.strategy.dag;
    if (!s.enabled || dagRestore || !dag.isDamaged() || !cluster.running) return;
    dagRestore = clock.setTimer(s.restore_delay_ms, () => {
      dagRestore = undefined;
      if (!cluster.strategy.dag.enabled || !dag.isDamaged()) return;
      const damage = dag.damage();
      dag.restore();
      log.record('dag_restored', `rebuilt from the workflow definition (${damage.join(', ')})`);
    });
  };

  /**
   * Submits workload runs at the configured rate, catching up on runs that fell
   * due while the event loop was busy, so the offered rate is the one configured.
   */
  const pacer = (): TimerHandle => {
    let due = clock.now();
    return every(
      cluster,
      () => (cluster.strategy.workload.rate > 0 ? Math.min(1000 / cluster.strategy.workload.rate, 20) : 100),
      () => {
        const { enabled, rate } = cluster.strategy.workload;
        const now = clock.now();
        if (!enabled || rate <= 0) {
          due = now;
          return;
        }
        const interval = 1000 / rate;
        // after a long stall, do not flood: at most one second's worth at once
        if (now - due > 1000) due = now - 1000;
        while (due <= now) {
          void workload.submit();
          due += interval;
        }
      },
    );
  };

  const roleOf = (agent: Agent): RuntimeRole => {
    if (agent.kind === 'worker') return cluster.leader?.id === agent.id ? 'leader' : 'worker';
    return cluster.activeOrchestratorId === agent.id ? 'orchestrator' : 'standby';
  };

  const health = (scope?: RuntimeHealthScope): RuntimeHealth => runtimeHealth(cluster, dag, scope);

  const runtime: AgentRuntime = {
    start() {
      if (cluster.running) return;
      cluster.running = true;
      if (stoppedBefore) {
        // a restart of the whole runtime: sessions closed by stop() are rebuilt, pending resurrections start over
        for (const agent of cluster.agents.values()) {
          if (agent.state === 'restarting') agent.state = 'stopped';
          if (agent.state !== 'stopped' && agent.state !== 'failed') agent.subsystems = cluster.buildSubsystems(agent);
        }
      }
      const s = () => cluster.strategy;
      heartbeatTick(cluster);
      electionTick(cluster);
      failoverTick(cluster);
      timers = [
        every(
          cluster,
          () => s().failover.heartbeat_interval_ms,
          () => {
            heartbeatTick(cluster);
            failoverTick(cluster);
            supervisor.sweep();
            scheduleDagRestore();
          },
        ),
        every(
          cluster,
          () => s().election.renew_interval_ms,
          () => electionTick(cluster),
        ),
        every(
          cluster,
          () => s().checkpoints.interval_ms,
          () => checkpointTick(cluster),
        ),
        every(
          cluster,
          () => s().integrity.check_interval_ms,
          () => integrityTick(cluster),
        ),
        pacer(),
      ];
    },
    async stop() {
      if (!cluster.running) return;
      cluster.running = false;
      stoppedBefore = true;
      for (const t of timers) t.cancel();
      timers = [];
      dagRestore?.cancel();
      dagRestore = undefined;
      supervisor.stop();
      workload.abortAll();
      // otherwise a task sleeping under slow_agent keeps a timer (and the process) alive after stop
      for (const agent of cluster.agents.values()) agent.halt();
      await Promise.all([...cluster.agents.values()].map((a) => a.subsystems.close()));
    },
    get isRunning() {
      return cluster.running;
    },
    agents: () =>
      [...cluster.agents.values()].map((a) => ({ id: a.id, role: roleOf(a), status: a.state, restarts: a.restarts })),
    agent: (id) => getAgent(cluster, id),
    leaderId: () => cluster.leader?.id,
    activeOrchestratorId: () => cluster.activeOrchestratorId,
    strategy: () => cluster.strategy,
    updateStrategy(patch) {
      const next = mergeStrategy(cluster.strategy, parseStrategyPatch(patch, 'strategy update', cluster.strategy));
      const problems = crossCheck(next);
      if (problems.length > 0)
        throw new UsageError(`strategy update: invalid strategy:\n  - ${problems.join('\n  - ')}`, {
          code: 'invalid_strategy',
          details: problems,
        });
      cluster.strategy = next;
      for (const agent of cluster.agents.values()) agent.subsystems.configure(next);
      if (cluster.running) {
        electionTick(cluster);
        failoverTick(cluster);
        supervisor.sweep();
        scheduleDagRestore();
      }
      return next;
    },
    stats: () => ledger.stats(),
    recentRuns: (limit) => ledger.recent(limit),
    events: (since) => log.list(since),
    onEvent: (listener) => log.subscribe(listener),
    health,
    dag,
    ledger,
    markers,
    topology,
    submitRun() {
      if (!cluster.running)
        return Promise.reject(new ConflictError('the runtime is not running', { code: 'runtime_stopped' }));
      return workload.submit();
    },
    cluster,
    noticeDeath: (agent) => supervisor.noticeDeath(agent),
    noticeDagDamage: scheduleDagRestore,
  };
  return runtime;
}
