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

export const DISRUPTIVE_FAULTS: ReadonlySet<ActionType> = new Set([
  'kill_agent',
  'kill_leader',
  'kill_orchestrator',
  'memory_corrupt',
  'mcp_disconnect',
  'llm_failure',
  'remove_node',
  'remove_edge',
  'network_partition',
]);

export function isDisruptive(type: ActionType): boolean {
  return DISRUPTIVE_FAULTS.has(type);
}

/** the part of the agent each agent fault damages */
const AGENT_ASPECT: Partial<Record<ActionType, AgentHealthAspect>> = {
  kill_agent: 'process',
  memory_corrupt: 'memory',
  mcp_disconnect: 'mcp',
  llm_failure: 'llm',
  network_partition: 'network',
};

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
      const aspect = AGENT_ASPECT[type];
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
