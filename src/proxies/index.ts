/**
 * `chaos-arena/proxies`: the TCP, LLM and MCP fault proxies (DESIGN §10) as a library. The MCP proxy
 * loads the MCP SDK only when one starts.
 */
export {
  startTcpProxy,
  startTcpFaultProxy,
  TCP_FAULT_TYPES,
  type TcpProxy,
  type TcpProxyOptions,
  type TcpProxyStats,
  type TcpEndpoint,
  type TcpFaultProxy,
  type TcpFaultProxyOptions,
  type TcpFaultType,
  type TcpFaultSpec,
} from './tcp/index.js';
export {
  startLlmProxy,
  startLlmControl,
  LLM_FAULT_TYPE,
  type LlmProxy,
  type LlmProxyOptions,
  type LlmApiMode,
  type LlmFaultStats,
  type LlmControl,
  type LlmControlOptions,
  type LlmFaultSpec,
  type LlmFaultMatch,
  type LlmProxyStats,
} from './llm/index.js';
export {
  startStdioMcpProxy,
  startHttpMcpProxy,
  startMcpControl,
  MCP_FAULT_TYPES,
  type StdioMcpProxyOptions,
  type HttpMcpProxyOptions,
  type McpControlOptions,
  type McpFaultType,
  type McpProxy,
  type McpHttpProxy,
  type McpProxyStats,
  type McpProxyEndReason,
} from './mcp/index.js';
