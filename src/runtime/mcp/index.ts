export { createInProcessMcpServer, inProcessConnector } from './server.js';
export {
  createMcpSession,
  McpSessionError,
  type McpSession,
  type McpSessionOptions,
  type McpSessionEvent,
  type McpReconnectOptions,
  type McpToolInfo,
  type McpToolResult,
} from './session.js';
export {
  stdioConnector,
  streamableHttpConnector,
  connectorFor,
  type McpConnector,
  type McpServerConfig,
  type StdioServerConfig,
  type HttpServerConfig,
} from './connectors.js';
