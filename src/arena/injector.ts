/**
 * Applies the 13 faults to a target through its providers. The injector holds
 * no state of its own: the target's providers do the real work and report
 * back. A fault that needs a provider the target does not have fails with a
 * RuntimeError that says so.
 */
import { RuntimeError, UsageError } from '../shared/errors.js';
import { parseDuration } from '../shared/duration.js';
import { LLM_ERROR_TYPES, type Action, type LlmErrorType } from './action.js';
import { llmFaultProblems } from '../protocol/llm-faults.js';
import { toolFaultProblems } from '../protocol/tool-faults.js';
import type { ActiveFault, AgentInfo, DAGEdge, DAGProvider, RuntimeProvider } from './providers.js';

/** Default length of a timed fault (DESIGN §3). */
export const DEFAULT_FAULT_DURATION_MS = 5000;

export interface SlowAgentOptions {
  /** added per-task delay; defaults to the fault's duration */
  delayMs?: number;
  /** how long the fault lasts; default 5 s */
  durationMs?: number;
}

export type InjectionReport = Record<string, unknown>;

export class Injector {
  constructor(
    private readonly runtime?: RuntimeProvider,
    private readonly dag?: DAGProvider,
  ) {}

  get hasRuntime(): boolean {
    return this.runtime !== undefined;
  }

  get hasDag(): boolean {
    return this.dag !== undefined;
  }

  async killAgent(agentId: string): Promise<InjectionReport> {
    return { killed_agent_id: agentId, ...(await this.rt('kill_agent').stopAgent(agentId)) };
  }

  /** kills the elected leader, found from the agents' roles */
  async killLeader(): Promise<InjectionReport> {
    const leader = await this.findByRole('kill_leader', 'leader', 'elected leader');
    return { killed_leader_id: leader.id, ...(await this.rt('kill_leader').stopAgent(leader.id)) };
  }

  /** kills the active orchestrator (not the standby) */
  async killOrchestrator(): Promise<InjectionReport> {
    const active = await this.findByRole('kill_orchestrator', 'orchestrator', 'active orchestrator');
    return { killed_orchestrator_id: active.id, ...(await this.rt('kill_orchestrator').stopAgent(active.id)) };
  }

  async pauseAgent(agentId: string, durationMs?: number): Promise<InjectionReport> {
    const runtime = this.rt('pause_agent');
    if (durationMs === undefined) return { ...(await runtime.pauseAgent(agentId, {})) };
    return { duration_ms: durationMs, ...(await runtime.pauseAgent(agentId, { durationMs })) };
  }

  async resumeAgent(agentId: string): Promise<InjectionReport> {
    return { ...(await this.rt('resume_agent').resumeAgent(agentId)) };
  }

  async slowAgent(agentId: string, options: SlowAgentOptions = {}): Promise<InjectionReport> {
    const durationMs = options.durationMs ?? DEFAULT_FAULT_DURATION_MS;
    const delayMs = options.delayMs ?? durationMs;
    const report = await this.rt('slow_agent').slowAgent(agentId, delayMs, { durationMs });
    return { duration_ms: durationMs, delay_ms: delayMs, ...report };
  }

  async networkPartition(agentId: string, durationMs = DEFAULT_FAULT_DURATION_MS): Promise<InjectionReport> {
    return {
      duration_ms: durationMs,
      ...(await this.rt('network_partition').partitionNetwork(agentId, { durationMs })),
    };
  }

  async toolTimeout(agentId: string, durationMs = DEFAULT_FAULT_DURATION_MS): Promise<InjectionReport> {
    return { duration_ms: durationMs, ...(await this.rt('tool_timeout').toolTimeout(agentId, { durationMs })) };
  }

  async corruptMemory(agentId: string): Promise<InjectionReport> {
    return { ...(await this.rt('memory_corrupt').corruptMemory(agentId)) };
  }

  async disconnectMcp(agentId: string): Promise<InjectionReport> {
    return { ...(await this.rt('mcp_disconnect').disconnectMcp(agentId)) };
  }

  async injectLlmFailure(
    agentId: string,
    errorType: LlmErrorType = 'rate_limit',
    durationMs = DEFAULT_FAULT_DURATION_MS,
    params: Record<string, unknown> = {},
  ): Promise<InjectionReport> {
    const options = Object.keys(params).length > 0 ? { durationMs, params } : { durationMs };
    const report = await this.rt('llm_failure').injectLlmFailure(agentId, errorType, options);
    return { error_type: errorType, duration_ms: durationMs, ...params, ...report };
  }

  async removeNode(nodeId: string): Promise<InjectionReport> {
    return { removed_node_id: nodeId, ...(await this.dg('remove_node').removeNode(nodeId)) };
  }

  async removeEdge(sourceId: string, targetId: string): Promise<InjectionReport> {
    return {
      removed_edge: { from: sourceId, to: targetId },
      ...(await this.dg('remove_edge').removeEdge(sourceId, targetId)),
    };
  }

  /**
   * Applies any action; metadata is read per DESIGN §3 (durations with units or ms). A fault that
   * cannot be applied is a rejected promise. The report is always a fresh object of the caller's
   * own, whatever the provider keeps.
   */
  async apply(action: Action): Promise<InjectionReport> {
    return this.dispatch(action);
  }

  /** the fault's own method; may throw synchronously (bad metadata, no provider), which `apply` turns into a rejection */
  private dispatch(action: Action): Promise<InjectionReport> {
    const md = action.metadata ?? {};
    const id = action.target_id;
    switch (action.type) {
      case 'kill_agent':
        return this.killAgent(id);
      case 'kill_leader':
        return this.killLeader();
      case 'kill_orchestrator':
        return this.killOrchestrator();
      case 'pause_agent':
        return this.pauseAgent(id, durationParam(md, 'duration'));
      case 'resume_agent':
        return this.resumeAgent(id);
      case 'slow_agent':
        return this.slowAgent(id, { durationMs: durationParam(md, 'duration'), delayMs: durationParam(md, 'delay') });
      case 'network_partition':
        return this.networkPartition(id, durationParam(md, 'duration'));
      case 'tool_timeout':
        return this.toolTimeout(id, durationParam(md, 'duration'));
      case 'memory_corrupt':
        return this.corruptMemory(id);
      case 'mcp_disconnect':
        return this.disconnectMcp(id);
      case 'llm_failure':
        return this.injectLlmFailure(id, errorTypeParam(md), durationParam(md, 'duration'), llmParams(md));
      case 'tool_fault':
        return this.toolFault(id, md);
      case 'remove_node':
        return this.removeNode(id);
      case 'remove_edge':
        if (!action.source_id)
          throw new UsageError('remove_edge needs source_id (the edge goes source_id → target_id)');
        return this.removeEdge(action.source_id, id);
      default: {
        const unknown: never = action.type;
        throw new UsageError(`unknown action type ${JSON.stringify(unknown)}`);
      }
    }
  }

  /** tool_fault (DESIGN §13.2): the agent's tool results come back wrong until `duration` ends (default 5 s) */
  async toolFault(agentId: string, metadata: Record<string, unknown>): Promise<InjectionReport> {
    const problem = toolFaultProblems(metadata, ['duration'])[0];
    if (problem) throw new UsageError(`metadata.${problem.field}: ${problem.message}`, { code: 'invalid_action' });
    const runtime = this.rt('tool_fault');
    if (!runtime.toolFault)
      throw new RuntimeError('tool_fault cannot be applied: this target has no way to change tool results', {
        code: 'unsupported',
      });
    const durationMs = durationParam(metadata, 'duration') ?? DEFAULT_FAULT_DURATION_MS;
    const params: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(metadata)) if (key !== 'duration' && value != null) params[key] = value;
    const report = await runtime.toolFault(agentId, params, { durationMs });
    return { ...params, duration_ms: durationMs, ...report };
  }

  // read helpers

  async agents(): Promise<AgentInfo[]> {
    return this.runtime ? this.runtime.listAgents() : [];
  }

  async availableAgentIds(): Promise<string[]> {
    return (await this.agents())
      .filter((a) => a.status === 'running')
      .map((a) => a.id)
      .sort();
  }

  async dagNodes(): Promise<string[]> {
    return this.dag ? this.dag.listNodes() : [];
  }

  async dagEdges(): Promise<DAGEdge[]> {
    return this.dag ? this.dag.listEdges() : [];
  }

  async activeFaults(): Promise<ActiveFault[]> {
    return this.runtime ? this.runtime.activeFaults() : [];
  }

  /** reverts every reversible fault still active on the target */
  async revertAll(): Promise<void> {
    await this.runtime?.revertAll();
  }

  private rt(what: string): RuntimeProvider {
    if (!this.runtime) throw noRuntime(what);
    return this.runtime;
  }

  private dg(what: string): DAGProvider {
    if (!this.dag)
      throw new RuntimeError(`${what} cannot be applied: this target has no workflow DAG provider`, {
        code: 'no_dag_provider',
      });
    return this.dag;
  }

  /** Deterministic: a running agent with the role, lowest id first. */
  private async findByRole(what: string, role: AgentInfo['role'], label: string): Promise<AgentInfo> {
    const candidates = (await this.rt(what).listAgents())
      .filter((a) => a.role === role && a.status === 'running')
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const found = candidates[0];
    if (!found)
      throw new RuntimeError(`${what} cannot be applied: there is no running ${label} right now`, {
        code: 'no_target_found',
      });
    return found;
  }
}

function noRuntime(what: string): RuntimeError {
  return new RuntimeError(`${what} cannot be applied: this target has no runtime provider`, {
    code: 'no_runtime_provider',
  });
}

function durationParam(md: Record<string, unknown>, key: string): number | undefined {
  const raw = md[key];
  if (raw === undefined || raw === null) return undefined;
  try {
    return parseDuration(raw);
  } catch (err) {
    throw new UsageError(`metadata.${key}: ${(err as Error).message}`, { code: 'invalid_action' });
  }
}

function errorTypeParam(md: Record<string, unknown>): LlmErrorType {
  const raw = md.error_type;
  if (raw === undefined || raw === null) return 'rate_limit';
  if (!(LLM_ERROR_TYPES as readonly unknown[]).includes(raw)) {
    throw new UsageError(
      `metadata.error_type: unknown error_type ${JSON.stringify(raw)} (one of ${LLM_ERROR_TYPES.join(', ')})`,
      { code: 'invalid_action' },
    );
  }
  return raw as LlmErrorType;
}

/** the llm_failure parameters beyond error_type and duration, checked by the shared vocabulary */
function llmParams(md: Record<string, unknown>): Record<string, unknown> {
  const problem = llmFaultProblems(md, ['duration'])[0];
  if (problem) throw new UsageError(`metadata.${problem.field}: ${problem.message}`, { code: 'invalid_action' });
  const params: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(md))
    if (key !== 'duration' && key !== 'error_type' && value !== undefined && value !== null) params[key] = value;
  return params;
}
