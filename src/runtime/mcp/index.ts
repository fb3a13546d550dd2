export { createInProcessMCPServer, inProcessConnector } from './server.js';
export {
  createMCPSession,
  MCPError,
  type MCPSession,
  type MCPSessionOptions,
  type MCPSessionEvent,
  type MCPReconnectOptions,
  type MCPToolInfo,
  type MCPToolResult,
} from './session.js';
export {
  stdioConnector,
  streamableHttpConnector,
  connectorFor,
  type MCPConnector,
  type MCPServerConfig,
  type StdioServerConfig,
  type HttpServerConfig,
} from './connectors.js';
