/**
 * The arena's asynchronous target contract, as this target implements it.
 * TEMPORARY: mirrors the lead's change to src/arena/providers.ts until it is
 * in main; then this file re-exports from there.
 */
import type { ActionType, LLMErrorType } from '../../arena/action.js';
import type {
  ActiveFault,
  AgentInfo,
  DAGProvider,
  FaultOptions,
  FaultReport,
  HealthReport,
  HealthScope,
  InvariantCheck,
  TargetDescription,
  WorkloadCounters,
} from '../../arena/providers.js';

export interface RuntimeProvider {
  listAgents(): Promise<AgentInfo[]>;
  stopAgent(agentId: string): Promise<FaultReport>;
  pauseAgent(agentId: string, options?: FaultOptions): Promise<FaultReport>;
  resumeAgent(agentId: string): Promise<FaultReport>;
  slowAgent(agentId: string, delayMs: number, options?: FaultOptions): Promise<FaultReport>;
  partitionNetwork(agentId: string, options?: FaultOptions): Promise<FaultReport>;
  toolTimeout(agentId: string, options?: FaultOptions): Promise<FaultReport>;
  corruptMemory(agentId: string): Promise<FaultReport>;
  disconnectMCP(agentId: string): Promise<FaultReport>;
  injectLLMFailure(agentId: string, errorType: LLMErrorType, options?: FaultOptions): Promise<FaultReport>;
  activeFaults(): Promise<ActiveFault[]>;
  revertAll(): Promise<void>;
}

export interface TargetObserver {
  health(scope: HealthScope): Promise<HealthReport>;
  workload(): Promise<WorkloadCounters>;
  checkInvariants(): Promise<InvariantCheck[]>;
}

export interface Target {
  readonly kind: 'embedded' | 'process' | 'remote';
  readonly name: string;
  readonly runtime: RuntimeProvider;
  readonly dag?: DAGProvider;
  readonly observer: TargetObserver;
  start(): Promise<void>;
  stop(): Promise<void>;
  unsupportedFaults(): Partial<Record<ActionType, string>>;
  describe(): Promise<TargetDescription>;
}

export type { ActiveFault, AgentInfo, FaultOptions, FaultReport, HealthReport, HealthScope, InvariantCheck, TargetDescription, WorkloadCounters };
