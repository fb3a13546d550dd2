/**
 * What the arena consumes from a target. The arena knows nothing of any
 * concrete target: the embedded runtime, OS processes and remote runtimes
 * (src/targets/*) adapt themselves to these interfaces. Every method returns
 * a promise, because listing agents, health, workload counters and invariant
 * checks may go over a network.
 *
 * Every fault method applies a real fault or throws (NotFoundError for an
 * unknown agent/node/edge, RuntimeError when it cannot be applied). Faults
 * given a `durationMs` revert themselves when it ends; `revertAll` reverts
 * every fault still active.
 */
import type { MarkerTravel } from '../protocol/markers.js';
import type { ActionType, LlmErrorType } from './action.js';
import type { CallLedgerReader } from '../protocol/calls.js';
import type { WorkloadWindow } from './workload-window.js';
import type { TrialTasks } from './trials/tasks.js';

export type AgentRole = 'leader' | 'worker' | 'orchestrator' | 'standby';
export type AgentStatus = 'running' | 'paused' | 'stopped' | 'restarting' | 'failed';

export interface AgentInfo {
  id: string;
  /** current role: one worker is the elected leader; one orchestrator is active, the other standby */
  role: AgentRole;
  status: AgentStatus;
  restarts: number;
}

export interface ActiveFault {
  id: string;
  kind: string;
  target: string;
  started_at_ms: number;
  /** undefined when the fault lasts until reverted */
  ends_at_ms?: number;
}

export interface FaultOptions {
  /** how long the fault lasts; undefined = until reverted (resume, heal, revertAll) */
  durationMs?: number;
}

export interface LlmFaultOptions extends FaultOptions {
  /** the fault's other parameters in wire names (`first_n`, `probability`, `match`, `keep`, …; DESIGN §13.1) */
  params?: Record<string, unknown>;
}

/** What a fault reports back, merged into the Result's metadata (e.g. `killed_leader_id`). */
export type FaultReport = Record<string, unknown> | void;

export interface RuntimeProvider {
  listAgents(): Promise<AgentInfo[]>;
  stopAgent(agentId: string): Promise<FaultReport>;
  pauseAgent(agentId: string, options?: FaultOptions): Promise<FaultReport>;
  resumeAgent(agentId: string): Promise<FaultReport>;
  /** every task the agent runs takes `delayMs` longer while the fault lasts */
  slowAgent(agentId: string, delayMs: number, options?: FaultOptions): Promise<FaultReport>;
  partitionNetwork(agentId: string, options?: FaultOptions): Promise<FaultReport>;
  toolTimeout(agentId: string, options?: FaultOptions): Promise<FaultReport>;
  corruptMemory(agentId: string): Promise<FaultReport>;
  disconnectMcp(agentId: string): Promise<FaultReport>;
  injectLlmFailure(agentId: string, errorType: LlmErrorType, options?: LlmFaultOptions): Promise<FaultReport>;
  /**
   * tool_fault (DESIGN §13.2): the agent's tool results come back wrong; `params` in wire names (`mode`,
   * `tool`, `keep`, …). Absent on a target that cannot apply it, which then lists it in unsupportedFaults.
   */
  toolFault?(agentId: string, params: Record<string, unknown>, options?: FaultOptions): Promise<FaultReport>;
  activeFaults(): Promise<ActiveFault[]>;
  /** reverts one active fault (its `ActiveFault.id`, also reported as `fault_id`); false when it was not active */
  revertFault(faultId: string): Promise<boolean>;
  revertAll(): Promise<void>;
}

export interface DAGEdge {
  from: string;
  to: string;
}

export interface DAGProvider {
  listNodes(): Promise<string[]>;
  listEdges(): Promise<DAGEdge[]>;
  removeNode(nodeId: string): Promise<FaultReport>;
  removeEdge(from: string, to: string): Promise<FaultReport>;
}

/**
 * One part of an agent, so that faults on the same agent do not block each
 * other's recovery: a dropped MCP session says nothing about its LLM calls.
 */
export type AgentHealthAspect = 'process' | 'memory' | 'mcp' | 'llm' | 'tools' | 'network';

/** What the arena polls to decide that a target is healthy again after a fault. */
export type HealthScope =
  /** no aspect: the whole agent */
  | { kind: 'agent'; id: string; aspect?: AgentHealthAspect }
  | { kind: 'leader' }
  | { kind: 'orchestrator' }
  | { kind: 'dag' }
  | { kind: 'target' };

export interface HealthReport {
  healthy: boolean;
  /** why not, when unhealthy: "agent-2 is stopped", "node plan missing" */
  problems: string[];
}

/** Cumulative counters of the steady-state workload since the target started: requests that ended. */
export interface WorkloadCounters {
  requests: number;
  succeeded: number;
  failed: number;
  /** sent and not ended yet, when the target knows */
  in_flight?: number;
}

export interface InvariantCheck {
  name: string;
  passed: boolean;
  detail?: string;
  /** false: a failure counts in the consistency score only; otherwise a failed invariant fails the run (DESIGN §5) */
  gate?: boolean;
}

/**
 * Observation of a running target: the measured score is computed only from
 * what this reports (DESIGN §5), never from injection success.
 */
export interface TargetObserver {
  health(scope: HealthScope): Promise<HealthReport>;
  workload(): Promise<WorkloadCounters>;
  /**
   * A target that sends its own workload counts each request sent in a window, waiting for those
   * still in flight when it closes (./workload-window.ts). Without it, availability counts the
   * requests that ended in the window.
   */
  openWorkloadWindow?(): WorkloadWindow;
  /** acknowledged writes readable, memory integrity, workflow outputs as expected, no duplicated effects */
  checkInvariants(): Promise<InvariantCheck[]>;
}

export type TargetKind = 'embedded' | 'process' | 'remote';

/** Fault type → why this target cannot apply it; a type not listed is supported. */
export type UnsupportedFaults = Partial<Record<ActionType, string>>;

/** A target the arena can attack and measure, with its lifecycle. */
export interface Target {
  readonly kind: TargetKind;
  readonly name: string;
  readonly runtime: RuntimeProvider;
  /** absent when the target has no workflow DAG (DAG faults are then unsupported) */
  readonly dag?: DAGProvider;
  readonly observer: TargetObserver;
  /** brings the target up (and, for a remote one, learns what it supports); throws when it cannot */
  start(options?: TargetStartOptions): Promise<void>;
  /** reverts what is left and stops; safe to call more than once */
  stop(): Promise<void>;
  /** faults refused before anything is injected, each with the reason; complete once start() resolved */
  unsupportedFaults(): UnsupportedFaults;
  /**
   * Why this target cannot apply this action's parameters (a fault type it supports, asked for in a
   * way it cannot do, e.g. a quiet `llm_failure` on a target with no LLM proxy); undefined when it can.
   */
  refuses?(action: { type: ActionType; metadata?: Record<string, unknown> }): string | undefined;
  /**
   * Why this agent cannot take a fault type the target applies to others (a process agent with no proxy
   * of that kind in front of it); undefined when it can. Survival draws such a fault among the agents
   * that can take it. Absent when every agent takes every fault the target supports.
   */
  agentRefuses?(agentId: string, type: ActionType): string | undefined;
  /** agents, DAG and strategy in force, for `arena describe` */
  describe(): Promise<TargetDescription>;
  /**
   * per fault, the markers its quiet changes planted and how far they travelled (DESIGN §13.3): into
   * the agents' context, into an action, to the user; absent when the target cannot trace them
   */
  markers?(): MarkerTravel[];
  /** the LLM and MCP calls its proxies saw (DESIGN §14 behaviour and cost); absent when it has no proxies */
  readonly calls?: CallLedgerReader;
  /** the tasks `arena trials` runs (DESIGN §14); absent when the target lists none */
  readonly trials?: TrialTasks;
  /** the fault proxies it runs in front of its agents, with what each saw so far; absent when it runs none */
  proxies?(): ProxyReport[];
  /**
   * where each agent lives now, for a dry run (DESIGN §6 `--dry-run`): its pid and the fault proxies in
   * front of it; absent on a target whose agents are no OS processes of this machine (embedded, remote)
   */
  locate?(): Promise<AgentLocation[]>;
}

export interface TargetStartOptions {
  /** false: send no workload (a dry run only resolves what faults would hit); default true */
  workload?: boolean;
}

export interface AgentLocation {
  id: string;
  /** its process now, when found */
  pid?: number;
  /** how the pid is found: `pid file run/worker-1.pid`, `port 7102`, `match "…"` */
  pid_source?: string;
  /** the fault proxies in front of it: `tcp 127.0.0.1:7001 → 127.0.0.1:7101`, `llm 127.0.0.1:7300` */
  proxies: string[];
  /** why its pid cannot be found now */
  problem?: string;
}

/** One fault proxy a target runs, as a report and `describe` show it. */
export interface ProxyReport {
  kind: 'tcp' | 'llm' | 'mcp';
  /** the agents whose traffic goes through it (more than one for a shared proxy) */
  agents: string[];
  /** where the agents connect, e.g. `127.0.0.1:7300` */
  listen: string;
  upstream: string;
  /** the proxy's own counters, as its `GET /v1/stats` gives them (retries, retry-after, injected errors, reconnects, tokens) */
  stats?: Record<string, unknown>;
}

export interface TargetDescription {
  name: string;
  kind?: TargetKind;
  agents: AgentInfo[];
  dag: { nodes: string[]; edges: DAGEdge[] };
  strategy: Record<string, unknown>;
}

export interface TargetOptions {
  /** recovery strategy in force; the target validates it and throws UsageError when invalid */
  strategy?: unknown;
  seed?: number;
}

/** Builds a fresh target per run: scenario runs, survival and regression arms never share one. */
export type TargetFactory = (options?: TargetOptions) => Target;
