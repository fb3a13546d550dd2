/**
 * The 13 faults applied for real to the embedded runtime (DESIGN §3), with
 * the bookkeeping that makes the reversible ones revertible: a fault with a
 * duration reverts itself, `revertAll` reverts whatever is still active, and
 * `activeFaults` lists only faults still in effect.
 *
 * Reversible faults are conditions imposed from outside (pause, slowness, a
 * partition, a hanging tool backend, a failing LLM provider). Kills, memory
 * corruption, MCP disconnects and DAG damage are damage to the target itself:
 * only the target's own recovery (supervisor, integrity restore, reconnect,
 * DAG restore) heals them, so the harness never repairs them behind its back
 * and the consistency checks see what recovery left.
 */
import type { ActiveFault, DAGEdge, DAGProvider, FaultOptions, RuntimeProvider } from '../../arena/providers.js';
import type { ActionType, LlmErrorType } from '../../arena/action.js';
import { LOUD_LLM_ERROR_TYPES, type LoudLlmErrorType } from '../../protocol/llm-faults.js';
import type { TimerHandle } from '../../shared/clock.js';
import { deriveSeed, type Random } from '../../shared/random.js';
import { toolResultFault, type ToolResultFault } from '../../runtime/tools/result-faults.js';
import { EMBEDDED_QUIET_LLM_TYPES, type EmbeddedQuietLlmType, type QuietLlmFault } from '../../runtime/llm/quiet.js';
import { RuntimeError, UsageError } from '../../shared/errors.js';
import type { AgentRuntime } from '../../runtime/runtime.js';
import type { Agent } from '../../runtime/agent.js';

interface FaultEntry {
  fault: ActiveFault;
  isActive(): boolean;
  revert(): void | Promise<void>;
  timer?: TimerHandle;
  /** re-applied to a resurrected agent: the fault lives outside the process (a backend, a provider) */
  reapply?(agent: Agent): void;
}

export interface EmbeddedFaults {
  runtime: RuntimeProvider;
  dag: DAGProvider;
  /** how many llm_failure faults were applied to this agent so far: the observer's "since the injection" */
  llmInjections(agentId: string): number;
  dispose(): void;
}

/**
 * What the embedded runtime cannot do with an action it otherwise supports: its LLM is simulated
 * in-process, so only the loud errors and the content faults a model can give without a wire apply
 * (truncate, empty, refusal, wrong_value), to every call, for the fault's duration (the other quiet
 * faults of DESIGN §13.1 and first_n/probability/match need the LLM proxy of a process target).
 */
export function embeddedRefusal(action: { type: ActionType; metadata?: Record<string, unknown> }): string | undefined {
  if (action.type === 'tool_fault') {
    // its tools' results change on every matching call while the fault lasts: a per-call choice is not applied
    const md = action.metadata ?? {};
    const extra = ['probability', 'first_n', 'match'].filter((k) => md[k] != null);
    return extra.length > 0
      ? `the embedded runtime changes every matching tool result for the fault's duration; it takes no ${extra.join(', ')} (a process target's MCP proxy does)`
      : undefined;
  }
  if (action.type !== 'llm_failure') return undefined;
  const md = action.metadata ?? {};
  const type = md.error_type ?? 'rate_limit';
  const applies = [...LOUD_LLM_ERROR_TYPES, ...EMBEDDED_QUIET_LLM_TYPES] as readonly unknown[];
  if (!applies.includes(type))
    return `the embedded runtime's simulated LLM applies only ${applies.join(', ')}, not ${String(type)} (the other quiet faults need the LLM proxy: a process target with llm:)`;
  const extra = Object.keys(md).filter(
    (k) => k !== 'error_type' && k !== 'duration' && !(k === 'keep' && type === 'truncate') && md[k] != null,
  );
  if (extra.length > 0)
    return `the embedded runtime's simulated LLM fails every call for the fault's duration; it takes no ${extra.join(', ')} (a process target's LLM proxy does)`;
  return undefined;
}

export function createEmbeddedFaults(rt: AgentRuntime, random: Random): EmbeddedFaults {
  const { clock } = rt.cluster;
  const entries = new Map<string, FaultEntry>();
  const llmInjections = new Map<string, number>();
  let seq = 0;

  const track = (
    kind: string,
    target: string,
    options: FaultOptions | undefined,
    entry: Omit<FaultEntry, 'fault'>,
  ): ActiveFault => {
    const durationMs = options?.durationMs;
    if (durationMs !== undefined && (!Number.isFinite(durationMs) || durationMs < 0)) {
      throw new UsageError(`${kind}: duration must be a non-negative number of milliseconds, got ${durationMs}`, {
        code: 'invalid_duration',
      });
    }
    const now = clock.now();
    const fault: ActiveFault = {
      id: `fault-${++seq}`,
      kind,
      target,
      started_at_ms: now,
      ...(durationMs !== undefined ? { ends_at_ms: now + durationMs } : {}),
    };
    const full: FaultEntry = { ...entry, fault };
    if (durationMs !== undefined) full.timer = clock.setTimer(durationMs, () => void end(fault.id));
    entries.set(fault.id, full);
    return fault;
  };

  const end = async (id: string): Promise<boolean> => {
    const entry = entries.get(id);
    if (!entry) return false;
    entries.delete(id);
    entry.timer?.cancel();
    const wasActive = entry.isActive();
    if (wasActive) await entry.revert();
    return wasActive;
  };

  /** ends earlier faults of the same kind on the same target: the newest one wins */
  const supersede = async (kind: string, target: string) => {
    for (const [id, e] of entries) if (e.fault.kind === kind && e.fault.target === target) await end(id);
  };

  const live = (agentId: string, fault: string): Agent => {
    const agent = rt.agent(agentId);
    if (agent.state === 'stopped' || agent.state === 'restarting' || agent.state === 'failed') {
      throw new RuntimeError(`${fault}: agent ${agentId} is ${agent.state}; the fault cannot be applied`, {
        code: 'agent_down',
      });
    }
    return agent;
  };

  // tool and LLM faults sit outside the agent process: a resurrected agent meets them again
  const unsubscribe = rt.onEvent((event) => {
    if (event.kind !== 'agent_restarted' || !event.agent_id) return;
    const agent = rt.agent(event.agent_id);
    for (const e of entries.values()) if (e.fault.target === agent.id) e.reapply?.(agent);
  });

  const runtime: RuntimeProvider = {
    listAgents: async () => rt.agents(),

    async stopAgent(agentId) {
      const agent = live(agentId, 'kill');
      const role = rt.agents().find((a) => a.id === agentId)!.role;
      const lost = agent.load;
      agent.kill();
      rt.cluster.log.record('agent_killed', `killed as ${role}; ${lost} task(s) lost`, agentId);
      rt.noticeDeath(agent);
      return { killed_agent_id: agentId, role, lost_tasks: lost };
    },

    async pauseAgent(agentId, options) {
      const agent = live(agentId, 'pause');
      if (agent.state === 'paused')
        throw new RuntimeError(`pause: agent ${agentId} is already paused`, { code: 'already_paused' });
      agent.pause();
      const fault = track('pause_agent', agentId, options, {
        isActive: () => agent.state === 'paused',
        revert: () => agent.resume(),
      });
      return { fault_id: fault.id, paused_agent_id: agentId };
    },

    async resumeAgent(agentId) {
      const agent = rt.agent(agentId);
      if (agent.state !== 'paused')
        throw new RuntimeError(`resume: agent ${agentId} is ${agent.state}, not paused`, { code: 'not_paused' });
      agent.resume();
      for (const [id, e] of entries) if (e.fault.kind === 'pause_agent' && e.fault.target === agentId) await end(id);
      return { resumed_agent_id: agentId };
    },

    async slowAgent(agentId, delayMs, options) {
      if (!Number.isFinite(delayMs) || delayMs <= 0)
        throw new UsageError(`slow_agent: delay must be a positive number of milliseconds, got ${delayMs}`, {
          code: 'invalid_delay',
        });
      const agent = live(agentId, 'slow_agent');
      await supersede('slow_agent', agentId);
      agent.slowMs = delayMs;
      const fault = track('slow_agent', agentId, options, {
        isActive: () => agent.slowMs > 0,
        revert: () => void (agent.slowMs = 0),
      });
      return { fault_id: fault.id, delay_ms: delayMs };
    },

    async partitionNetwork(agentId, options) {
      const agent = rt.agent(agentId);
      await supersede('network_partition', agentId);
      agent.partitioned = true;
      const fault = track('network_partition', agentId, options, {
        isActive: () => agent.partitioned,
        revert: () => void (agent.partitioned = false),
      });
      return { fault_id: fault.id, partitioned_agent_id: agentId };
    },

    async toolTimeout(agentId, options) {
      const agent = live(agentId, 'tool_timeout');
      await supersede('tool_timeout', agentId);
      agent.subsystems.tools.setHanging(true);
      const fault = track('tool_timeout', agentId, options, {
        isActive: () => agent.subsystems.tools.isHanging,
        revert: () => agent.subsystems.tools.setHanging(false),
        reapply: (a) => a.subsystems.tools.setHanging(true),
      });
      return { fault_id: fault.id, tool_timeout_ms: agent.subsystems.tools.timeoutMs };
    },

    async corruptMemory(agentId) {
      const agent = rt.agent(agentId);
      const keys = agent.memory.corrupt(random);
      return { corrupted_keys: keys };
    },

    async disconnectMcp(agentId) {
      const agent = live(agentId, 'mcp_disconnect');
      const session = agent.subsystems.mcp;
      if (!session.isConnected())
        throw new RuntimeError(`mcp_disconnect: agent ${agentId}'s MCP session is not connected`, {
          code: 'mcp_not_connected',
        });
      await session.disconnect();
      return { reconnect: session.reconnectConfig().enabled };
    },

    async injectLlmFailure(agentId, errorType: LlmErrorType, options) {
      const refusal = embeddedRefusal({ type: 'llm_failure', metadata: { ...options?.params, error_type: errorType } });
      if (refusal) throw new RuntimeError(`llm_failure: ${refusal}`, { code: 'unsupported' });
      const agent = live(agentId, 'llm_failure');
      await supersede('llm_failure', agentId);
      if ((EMBEDDED_QUIET_LLM_TYPES as readonly string[]).includes(errorType)) {
        let quiet: QuietLlmFault | undefined;
        const fault = track('llm_failure', agentId, options, {
          isActive: () => quiet !== undefined && agent.subsystems.llm.quietFault === quiet,
          revert: () => {
            if (agent.subsystems.llm.quietFault === quiet) agent.subsystems.llm.injectQuiet(undefined);
          },
          reapply: (a) => a.subsystems.llm.injectQuiet(quiet),
        });
        const keep = options?.params?.keep;
        quiet = {
          id: fault.id,
          type: errorType as EmbeddedQuietLlmType,
          keep: typeof keep === 'number' ? keep : 0.5,
          seed: deriveSeed(random.seed, `llm_failure:${fault.id}`),
        };
        agent.subsystems.llm.injectQuiet(quiet);
        llmInjections.set(agentId, (llmInjections.get(agentId) ?? 0) + 1);
        return {
          fault_id: fault.id,
          error_type: errorType,
          validate: agent.subsystems.llm.config().validate,
          fallback: agent.subsystems.llm.config().fallbackEnabled,
        };
      }
      agent.subsystems.llm.injectFailure(errorType as LoudLlmErrorType);
      llmInjections.set(agentId, (llmInjections.get(agentId) ?? 0) + 1);
      const fault = track('llm_failure', agentId, options, {
        isActive: () => agent.subsystems.llm.failureActive,
        revert: () => agent.subsystems.llm.clearFailure(),
        reapply: (a) => a.subsystems.llm.injectFailure(errorType as LoudLlmErrorType),
      });
      return { fault_id: fault.id, error_type: errorType, fallback: agent.subsystems.llm.config().fallbackEnabled };
    },

    async toolFault(agentId, params, options) {
      const agent = live(agentId, 'tool_fault');
      await supersede('tool_fault', agentId);
      let result: ToolResultFault | undefined;
      const fault = track('tool_fault', agentId, options, {
        isActive: () => result !== undefined && agent.subsystems.tools.resultFault === result,
        revert: () => {
          if (agent.subsystems.tools.resultFault === result) agent.subsystems.tools.setResultFault(undefined);
        },
        reapply: (a) => a.subsystems.tools.setResultFault(result),
      });
      // seeded by the run's seed and the fault's place in the run, never by the wall clock
      result = toolResultFault(fault.id, params, deriveSeed(random.seed, `tool_fault:${fault.id}`));
      agent.subsystems.tools.setResultFault(result);
      return {
        fault_id: fault.id,
        mode: result.mode,
        tool: result.tool,
        validate: rt.strategy().tools.enabled && rt.strategy().tools.validate,
        ...(result.canary ? { canary: result.canary } : {}),
      };
    },

    activeFaults: async () => [...entries.values()].filter((e) => e.isActive()).map((e) => ({ ...e.fault })),

    revertFault: (faultId) => end(faultId),

    async revertAll() {
      for (const id of [...entries.keys()]) await end(id);
    },
  };

  const dag: DAGProvider = {
    listNodes: async () => rt.dag.nodes(),
    listEdges: async () => rt.dag.edges(),
    async removeNode(nodeId) {
      const removed: DAGEdge[] = rt.dag.removeNode(nodeId);
      rt.cluster.log.record('dag_damaged', `node ${nodeId} removed with ${removed.length} edge(s)`);
      rt.noticeDagDamage();
      return { removed_node: nodeId, removed_edges: removed };
    },
    async removeEdge(from, to) {
      rt.dag.removeEdge(from, to);
      rt.cluster.log.record('dag_damaged', `edge ${from}→${to} removed`);
      rt.noticeDagDamage();
      return { removed_edge: { from, to } };
    },
  };

  return {
    runtime,
    dag,
    llmInjections: (agentId) => llmInjections.get(agentId) ?? 0,
    dispose() {
      unsubscribe();
      for (const e of entries.values()) e.timer?.cancel();
    },
  };
}
