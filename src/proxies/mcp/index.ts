/**
 * The MCP fault proxy (DESIGN §10.3). Nothing here loads the MCP SDK until a
 * proxy starts: its modules import the SDK's types only, and its transports
 * with a dynamic import inside the start functions.
 */
export { startStdioMcpProxy, type StdioMcpProxyOptions } from './stdio.js';
export { startHttpMcpProxy, parseUpstreamUrl, type HttpMcpProxyOptions } from './http.js';
export { startMcpControl, type McpControlOptions } from './control.js';
export { MCP_FAULT_TYPES, DEFAULT_SLOW_TOOL_DELAY_MS, DEFAULT_TOOL_ERROR_CODE, type McpFaultType, type ToolErrorMode } from './faults.js';
export type { McpProxyStats } from './stats.js';
export type { McpProxy, McpHttpProxy, McpProxyEndReason } from './types.js';
