/**
 * `chaos-arena/targets`: what the arena attacks (DESIGN §9). The embedded runtime and the workflows it
 * runs, a managed process fleet, a remote target over the Arena Target Protocol with its conformance
 * kit and reference server, target files, and the recovery strategies and their evolution.
 */
export type * from '../arena/providers.js';
export {
  createEmbeddedTarget,
  embeddedTargetFactory,
  getEmbeddedRuntime,
  type EmbeddedTargetOptions,
} from './embedded/index.js';
export { loadTargetFile, TARGET_KINDS, type LoadedTargetFile, type TargetBuildOptions } from './file.js';
export {
  createProcessTarget,
  processTargetSchema,
  type ProcessTargetOptions,
  type ProcessTargetSpec,
  type ProcessTargetInput,
} from './process/index.js';
export { createRemoteTarget, type RemoteTargetOptions } from './remote/target.js';
export type { RemoteTargetSpec } from './remote/spec.js';
export { checkConformance, type CheckResult, type ConformanceOptions } from './remote/conformance.js';
export { serveTargetProtocol, type TargetProtocolOptions, type ServedTarget } from './protocol-server.js';
export type { FaultRequest, FaultAccepted, WireActiveFault, WireErrorBody } from '../protocol/wire.js';

// the embedded runtime, driven directly
export {
  createRuntime,
  type AgentRuntime,
  type CreateRuntimeOptions,
  type RuntimeAgentInfo,
  type RuntimeHealth,
  type RuntimeHealthScope,
  type RuntimeRole,
} from '../runtime/runtime.js';
export { DEFAULT_TOPOLOGY, type Topology } from '../runtime/topology.js';
export type { RecoveryEvent, RecoveryEventKind } from '../runtime/events.js';
export type { WorkloadStats, RunRecord } from '../runtime/ledger.js';
export {
  LlmError,
  isLlmError,
  createLocalModel,
  createOpenAICompatibleProvider,
  createLlmClient,
  type LlmProviderErrorType,
  type LlmMessage,
  type LlmRequest,
  type LlmResponse,
  type LlmProvider,
  type LlmUsage,
  type LlmRole,
  type LocalModelOptions,
  type OpenAICompatibleOptions,
  type LlmClient,
  type LlmClientOptions,
  type LlmClientStats,
  type LlmClientConfig,
} from '../runtime/llm/index.js';
export {
  createMcpSession,
  McpSessionError,
  stdioConnector,
  streamableHttpConnector,
  connectorFor,
  type McpSession,
  type McpSessionOptions,
  type McpSessionEvent,
  type McpReconnectOptions,
  type McpToolInfo,
  type McpToolResult,
  type McpConnector,
  type McpServerConfig,
  type StdioServerConfig,
  type HttpServerConfig,
} from '../runtime/mcp/index.js';

// workflows the runtime runs
export {
  executeWorkflow,
  assertValidWorkflow,
  loadWorkflow,
  checkWorkflowText,
  StepTimeoutError,
  DEFAULT_MAX_PARALLEL,
  MAX_WORKFLOW_FILE_BYTES,
  RECOVERY_STRATEGY,
} from '../workflow/index.js';
export { createBuiltinRegistry, renderTemplate } from '../client/step-agents.js';

// recovery strategies, and evolving them
export {
  DEFAULT_STRATEGY,
  RECOVERY_OFF_STRATEGY,
  WORKFLOW_RECOVERY,
  parseStrategy,
  parseStrategyPatch,
  parseStrategyText,
  loadStrategyFile,
  mergeStrategy,
  type Strategy,
  type StrategyPatch,
  type WorkflowRecovery,
} from '../runtime/strategy.js';
export {
  runEvolution,
  runIdleEvolution,
  type EvolutionOptions,
  type EvolutionResult,
  type GenerationStats,
  type FitnessFunction,
  type FitnessContext,
  type IdleEvolutionOptions,
  type IdleEvolutionResult,
} from '../evolution/index.js';
