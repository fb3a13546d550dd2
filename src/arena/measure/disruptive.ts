/**
 * Which faults count as disruptive for the recovery dimension, and what
 * "healthy again" means for each.
 *
 * Disruptive: faults the runtime itself must heal (kill → resurrection,
 * election, takeover; memory → integrity check + restore; MCP → reconnect;
 * LLM → retries/fallback; DAG → restore; partition → rejoin). Agent faults poll
 * only the aspect of the agent they hit (its process, memory, MCP session, LLM
 * calls, network), so two faults on one agent do not block each other. A
 * partition counts as recovered when the agent is reachable again: keep
 * partition durations short (≤ 1 s) or the recovery speed reflects the
 * scenario's duration; routing around it shows in availability. An LLM failure
 * recovers when the agent's LLM calls succeed again (through the fallback
 * provider, or after the failure ends).
 *
 * Not disruptive: pause_agent, resume_agent, slow_agent and tool_timeout. Their
 * end is decided by the scenario (a resume or the fault's own `duration`), so
 * timing them would measure the scenario's numbers, not the runtime. What they
 * cost is still measured: requests they make fail count against availability.
 */
import type { ActionType, Result } from '../action.js';
import type { AgentHealthAspect, HealthScope } from '../providers.js';

/**
 * Per fault: does it break something that must then recover, and which aspect of the agent it
 * damages. A Record so that a new fault type is a compile error until it is classified here.
 */
const FAULT_DAMAGE: Record<ActionType, { isDisruptive: boolean; aspect?: AgentHealthAspect }> = {
  kill_agent: { isDisruptive: true, aspect: 'process' },
  kill_leader: { isDisruptive: true },
  kill_orchestrator: { isDisruptive: true },
  pause_agent: { isDisruptive: false },
  resume_agent: { isDisruptive: false },
  slow_agent: { isDisruptive: false },
  network_partition: { isDisruptive: true, aspect: 'network' },
  tool_timeout: { isDisruptive: false },
  memory_corrupt: { isDisruptive: true, aspect: 'memory' },
  mcp_disconnect: { isDisruptive: true, aspect: 'mcp' },
  llm_failure: { isDisruptive: true, aspect: 'llm' },
  remove_node: { isDisruptive: true },
  remove_edge: { isDisruptive: true },
  // the tool answers, only wrongly: nothing goes down that must come back (its damage is in the workload)
  tool_fault: { isDisruptive: false },
};

export const DISRUPTIVE_FAULTS: ReadonlySet<ActionType> = new Set(
  (Object.keys(FAULT_DAMAGE) as ActionType[]).filter((t) => FAULT_DAMAGE[t].isDisruptive),
);

export function isDisruptive(type: ActionType): boolean {
  return DISRUPTIVE_FAULTS.has(type);
}

/** The health scope to poll after this fault, or undefined when it is not disruptive. */
export function healthScopeFor(result: Result): HealthScope | undefined {
  const { type, target_id } = result.action;
  if (!isDisruptive(type)) return undefined;
  switch (type) {
    case 'kill_leader':
      return { kind: 'leader' };
    case 'kill_orchestrator':
      return { kind: 'orchestrator' };
    case 'remove_node':
    case 'remove_edge':
      return { kind: 'dag' };
    default: {
      const aspect = FAULT_DAMAGE[type].aspect;
      return aspect ? { kind: 'agent', id: target_id, aspect } : { kind: 'agent', id: target_id };
    }
  }
}

/** what the fault hit, for reports: the killed leader's id rather than an empty target */
export function faultTarget(result: Result): string {
  const md = result.metadata ?? {};
  if (typeof md.killed_leader_id === 'string') return md.killed_leader_id;
  if (typeof md.killed_orchestrator_id === 'string') return md.killed_orchestrator_id;
  if (result.action.type === 'remove_edge') return `${result.action.source_id}→${result.action.target_id}`;
  return result.action.target_id;
}
