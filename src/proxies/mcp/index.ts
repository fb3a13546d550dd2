/**
 * The MCP fault proxy (DESIGN §10.3). Nothing here loads the MCP SDK until a
 * proxy starts: its modules import the SDK's types only, and its transports
 * with a dynamic import inside the start functions.
 */
export { startStdioMcpProxy, type StdioMcpProxyOptions } from './stdio.js';
export { startHttpMcpProxy, type HttpMcpProxyOptions } from './http.js';
export { startMcpControl, type McpControlOptions } from './control.js';
export { MCP_FAULT_TYPES, type McpFaultType } from './faults.js';
export type { McpProxyStats } from './stats.js';
export type { McpProxy, McpHttpProxy, McpProxyEndReason } from './types.js';
