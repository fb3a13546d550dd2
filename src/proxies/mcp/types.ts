/** What both MCP proxy modes hand back to their caller (the CLI, a process target, a test). */
import type { FaultRegistry } from '../../protocol/fault-registry.js';
import type { McpProxyStats } from './stats.js';
import type { CallLedgerReader } from '../../protocol/calls.js';

/**
 * Why a proxy stopped on its own. Only the stdio proxy ends by itself: its
 * life is the agent's session (the agent hung up, the server exited, or
 * mcp_disconnect closed the pipes).
 */
export type McpProxyEndReason = 'agent_closed' | 'server_exited' | 'disconnected' | 'closed';

export interface McpProxy {
  mode: 'stdio' | 'http';
  /** active faults with leases: what the control port's fault routes act on */
  faults: FaultRegistry;
  stats(): McpProxyStats;
  /** every tools/call it relayed or answered, for `GET /v1/calls` and trials */
  calls: CallLedgerReader;
  /** settles once the proxy has stopped, saying why */
  ended: Promise<McpProxyEndReason>;
  /** reverts every fault, ends every session and stops the server process / listener */
  close(): Promise<void>;
}

export interface McpHttpProxy extends McpProxy {
  mode: 'http';
  port: number;
  /** the MCP endpoint agents connect to, e.g. http://127.0.0.1:7400/mcp */
  url: string;
}
