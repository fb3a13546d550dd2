/**
 * Which faults this process target cannot apply, and why, decided from its
 * target file before anything is injected. Nothing is simulated to fill a gap.
 */
import type { ActionType } from '../../arena/action.js';
import type { ProcessTargetSpec } from './spec.js';

/** which fault proxies this build can start */
export interface ProxyKinds {
  tcp: boolean;
  llm: boolean;
  mcp: boolean;
}

export function unsupportedFaults(spec: ProcessTargetSpec, kinds: ProxyKinds): Partial<Record<ActionType, string>> {
  const name = spec.name;
  const out: Partial<Record<ActionType, string>> = {
    remove_node: 'a process target has no workflow DAG',
    remove_edge: 'a process target has no workflow DAG',
  };
  if (!spec.leader)
    out.kill_leader = `target ${name} has no leader discovery (add leader: { http, json } or { command })`;
  if (!spec.agents.some((a) => a.role === 'orchestrator' || a.role === 'standby'))
    out.kill_orchestrator = `target ${name} has no agent with role orchestrator`;
  const hasProxy = spec.agents.some((a) => a.proxy);
  for (const type of ['slow_agent', 'network_partition'] as const) {
    if (!hasProxy) out[type] = `no agent of target ${name} has a proxy (add proxy: { listen, upstream } to an agent)`;
    else if (!kinds.tcp) out[type] = 'the TCP fault proxy is not available in this build';
  }
  const hasLlm = spec.llm !== undefined || spec.agents.some((a) => a.llm);
  if (!hasLlm) out.llm_failure = `target ${name} has no llm: proxy (add llm: { listen, upstream, api })`;
  else if (!kinds.llm) out.llm_failure = 'the LLM fault proxy is not available in this build';
  const hasMcp = spec.mcp !== undefined || spec.agents.some((a) => a.mcp);
  for (const type of ['tool_timeout', 'tool_fault'] as const) {
    if (!hasMcp) out[type] = `target ${name} has no mcp: proxy (add mcp: { listen, upstream })`;
    else if (!kinds.mcp) out[type] = 'the MCP fault proxy is not available in this build';
  }
  if (!spec.hooks?.mcp_disconnect) {
    if (!hasMcp) out.mcp_disconnect = `target ${name} has no mcp: proxy and no mcp_disconnect hook`;
    else if (!kinds.mcp)
      out.mcp_disconnect = 'the MCP fault proxy is not available in this build, and target has no mcp_disconnect hook';
  }
  if (!spec.hooks?.memory_corrupt)
    out.memory_corrupt = `target ${name} has no memory_corrupt hook (add hooks: { memory_corrupt: "command {agent}" })`;
  return out;
}

/**
 * Why this agent cannot take a fault type the target applies to others: it has no proxy of that kind of
 * its own and none shared (the target-level `llm:` / `mcp:` stands in front of every agent). Undefined
 * when it can, and for an agent the target does not list (the fault's own error names it).
 */
export function agentUnsupported(spec: ProcessTargetSpec, agentId: string, type: ActionType): string | undefined {
  const agent = spec.agents.find((a) => a.id === agentId);
  if (!agent) return undefined;
  switch (type) {
    case 'slow_agent':
    case 'network_partition':
      return agent.proxy ? undefined : `agent ${agentId} has no proxy`;
    case 'llm_failure':
      return spec.llm || agent.llm ? undefined : `agent ${agentId} has no llm: proxy`;
    case 'tool_fault':
    case 'tool_timeout':
      return spec.mcp || agent.mcp ? undefined : `agent ${agentId} has no mcp: proxy`;
    case 'mcp_disconnect':
      return spec.hooks?.mcp_disconnect || spec.mcp || agent.mcp
        ? undefined
        : `agent ${agentId} has no mcp: proxy and the target no mcp_disconnect hook`;
    default:
      return undefined;
  }
}
