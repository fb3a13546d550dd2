export { Client, SERVICE_NAMES, type ClientServiceName, type ClientServices } from './client.js';
export { SimpleClient, type SimpleClientOptions } from './simple.js';
export { WorkflowClient } from './workflow-client.js';
export { NotConfiguredError, ClientClosedError, ClientCloseError, type ServiceCloseFailure } from './errors.js';
export {
  validateClientConfig,
  LLM_PROVIDERS,
  type ClientConfig,
  type LlmConfig,
  type LlmProviderConfig,
  type LlmProviderKind,
  type AgentConfig,
  type McpClientConfig,
  type MemoryConfig,
  type RetrievalConfig,
  type WorkflowConfig,
  type ConfigProblem,
} from './config.js';
export type { AgentService, AgentResponse, AgentExecuteOptions } from './agent-service.js';
export { createBuiltinRegistry, renderTemplate, type BuiltinAgentServices } from './step-agents.js';
export type { ClientHealthReport, ClientServiceHealth } from './health.js';
