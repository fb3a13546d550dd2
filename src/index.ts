/**
 * Public API of chaos-arena: what a program embedding the arena needs, and nothing else.
 * Only re-exports. Anything not named here is internal and free to change; adding or removing a
 * name is a decision that test/unit/public-api.test.ts makes visible. Importing this module loads
 * neither better-sqlite3 nor the MCP SDK: each is loaded when a store opens or an MCP session connects.
 */

// errors: every failure the library throws, each carrying its CLI exit code
export {
  ArenaError,
  UsageError,
  NotFoundError,
  ConflictError,
  GateFailedError,
  RuntimeError,
  CancelledError,
  isArenaError,
  errorMessage,
  type ArenaErrorOptions,
} from './shared/errors.js';

// what varies: time, randomness, durations
export { parseDuration, formatDuration, durationProblem, MAX_DURATION_MS } from './shared/duration.js';
export { systemClock, ManualClock, type Clock, type TimerHandle } from './shared/clock.js';
export { createRandom, type Random } from './shared/random.js';

// faults (DESIGN §3)
export {
  ACTION_TYPES,
  LLM_ERROR_TYPES,
  SELF_TARGETING,
  isActionType,
  type ActionType,
  type LLMErrorType,
  type Action,
  type Result,
} from './arena/action.js';
export {
  createAction,
  parseAction,
  actionProblems,
  ACTION_PARAMETERS,
  type CreateActionOptions,
  type ActionProblem,
} from './arena/actions.js';

// targets: what the arena attacks, and the interfaces a custom target implements (DESIGN §9)
export type * from './arena/providers.js';
export {
  createEmbeddedTarget,
  embeddedTargetFactory,
  getEmbeddedRuntime,
  type EmbeddedTargetOptions,
} from './targets/embedded/index.js';
export { loadTargetFile, TARGET_KINDS, type LoadedTargetFile, type TargetBuildOptions } from './targets/file.js';
export { createRemoteTarget, type RemoteTargetOptions } from './targets/remote/target.js';
export {
  createProcessTarget,
  processTargetSchema,
  type ProcessTargetOptions,
  type ProcessTargetSpec,
  type ProcessTargetInput,
} from './targets/process/index.js';
export type { RemoteTargetSpec } from './targets/remote/spec.js';
export { checkConformance, type CheckResult, type ConformanceOptions } from './targets/remote/conformance.js';
export { serveTargetProtocol, type TargetProtocolOptions, type ServedTarget } from './targets/protocol-server.js';
export type { FaultRequest, FaultAccepted, WireActiveFault, WireErrorBody } from './protocol/wire.js';

// the arena: injector, measurement, score, event stores
export { Injector, DEFAULT_FAULT_DURATION_MS, type SlowAgentOptions, type InjectionReport } from './arena/injector.js';
export { MetricsCollector, type MetricsSnapshot, type TypeMetrics } from './arena/metrics.js';
export {
  ArenaService,
  ARENA_STREAM,
  type ArenaServiceOptions,
  type ArenaStats,
  type ArenaEvent,
  type ArenaEventType,
} from './arena/service.js';
export {
  calculateScore,
  gradeFor,
  gateOutcome,
  SCORE_WEIGHTS,
  type InjectionStats,
  type GateOn,
} from './arena/score.js';
export {
  startMeasurement,
  type MeasurementOptions,
  type MeasurementSession,
  type FinishOptions,
} from './arena/measure/index.js';
export {
  ANY_VERSION,
  type EventStore,
  type StoredEvent,
  type NewEvent,
  type EventFilter,
  type SubscribeOptions,
  type EventQuery,
  type DataCondition,
  type QueryableEventStore,
} from './arena/event-store.js';
export { MemoryEventStore, type MemoryEventStoreOptions } from './events/memory.js';
export {
  SqliteEventStore,
  openSqliteEventStore,
  DEFAULT_DB_PATH,
  type SqliteEventStoreOptions,
  type SqliteStoredEvent,
  type SqliteEventFilter,
} from './events/sqlite.js';
export { openEventStore, type OpenedEventStore, type OpenEventStoreOptions } from './events/open.js';
// pg is loaded only when a PostgreSQL store connects
export { PostgresEventStore, type PostgresEventStoreOptions, type PostgresStoredEvent } from './events/postgres.js';
export { PostgresRunQueue } from './events/run-queue.js';
export { createQueueArena, type RunQueue, type ClaimedRun, type QueuedRequest } from './arena/regression/queue.js';
export { runWorker, type WorkerOptions, type WorkerEvent } from './arena/regression/worker.js';
export type { FlightBridge, EvolutionBridge, EvidenceStore, Evidence } from './arena/bridges.js';

// run functions: scenarios, survival, regression, evolution
export type {
  Scenario,
  ScenarioActionSpec,
  ScenarioStep,
  ScenarioConfig,
  ScenarioProblem,
  ScenarioValidation,
} from './arena/scenario/index.js';
export {
  validateScenario,
  loadScenario,
  loadScenarioFile,
  checkScenarioText,
  checkScenarioFile,
  runScenario,
  runScenarioOnTarget,
  runScenarioReport,
  type RunScenarioOptions,
  type RunOnTargetOptions,
} from './arena/scenario/index.js';
export {
  runSurvival,
  runSurvivalOnTarget,
  resolveSurvivalConfig,
  SurvivalController,
  DEFAULT_SURVIVAL_ACTIONS,
  survivalToScenario,
  survivalToScenarioYaml,
  replayPlanFromReport,
  type SurvivalOptions,
  type SurvivalTimelineEntry,
  type SurvivalStatus,
  type ReplayPlan,
  type ScenarioDraft,
} from './arena/survival/index.js';
export {
  RegressionTester,
  analyzeScores,
  DEFAULT_MINIMUM_EFFECT,
  EnsembleScorer,
  resilienceScorer,
  dimensionScorer,
  readScoresFile,
  extractScores,
  createTargetArena,
} from './arena/regression/index.js';
export type {
  RegressionResult,
  RegressionAnalysis,
  RegressionDecision,
  ArmSummary,
  PowerStatement,
  Scorer,
  WeightedScorer,
  ScoreDimension,
  TargetArenaOptions,
  ScenarioOnTargetRunner,
  TTestResult,
  MannWhitneyResult,
  EffectSize,
} from './arena/regression/index.js';
export type * from './arena/regression/types.js';
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
} from './evolution/index.js';
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
} from './runtime/strategy.js';

// reports: the documents runs return (and --json prints)
export type * from './arena/report.js';

// flight recorder: what happened during a run, and why it failed
export {
  FlightRecorder,
  FlightService,
  diagnose,
  recordRunEvents,
  listRecordedRuns,
  type FlightRecorderOptions,
  type FlightSummary,
  type FlightServiceOptions,
  type TimelineDocument,
  type DiagnosticsDocument,
  type ReplayDocument,
  type Diagnostic,
  type FlightCategory,
  type FailureReason,
  type RunRecording,
  type RecordedRun,
} from './flight/index.js';
export type { TimelineRecord, DiagnosticRecord, FailureEvidence, FlightQuery } from './flight/index.js';

// the container and the HTTP API (DESIGN §7)
export {
  bootstrap,
  RootLifecycleError,
  type ArenaRoot,
  type BootstrapConfig,
  type ArenaPort,
  type RuntimePort,
  type LLMPort,
  type MCPPort,
  type StreamPort,
  type RootStatus,
} from './bootstrap/index.js';
export { createApp, ROUTE_GROUPS, type App, type AppOptions } from './server/app.js';
export { listen, type ListenOptions, type ServerHandle } from './server/listen.js';
export { serveRoot, isLoopbackHost, type ServeOptions, type RunningServer } from './server/serve.js';

// library clients
export * from './client/index.js';

// the embedded runtime an embedder can drive directly
export {
  createRuntime,
  type AgentRuntime,
  type CreateRuntimeOptions,
  type RuntimeAgentInfo,
  type RuntimeHealth,
  type RuntimeHealthScope,
  type RuntimeRole,
} from './runtime/runtime.js';
export { DEFAULT_TOPOLOGY, type Topology } from './runtime/topology.js';
export type { RecoveryEvent, RecoveryEventKind } from './runtime/events.js';
export type { WorkloadStats, RunRecord } from './runtime/ledger.js';
export {
  LLMError,
  isLLMError,
  createLocalModel,
  createOpenAICompatibleProvider,
  createLLMClient,
  type LLMErrorType as LLMProviderErrorType,
  type LLMMessage,
  type LLMRequest,
  type LLMResponse,
  type LLMProvider,
  type LLMUsage,
  type LLMRole,
  type LocalModelOptions,
  type OpenAICompatibleOptions,
  type LLMClient,
  type LLMClientOptions,
  type LLMClientStats,
  type LLMClientConfig,
} from './runtime/llm/index.js';
export {
  createMCPSession,
  MCPError,
  stdioConnector,
  streamableHttpConnector,
  connectorFor,
  type MCPSession,
  type MCPSessionOptions,
  type MCPSessionEvent,
  type MCPReconnectOptions,
  type MCPToolInfo,
  type MCPToolResult,
  type MCPConnector,
  type MCPServerConfig,
  type StdioServerConfig,
  type HttpServerConfig,
} from './runtime/mcp/index.js';
export * from './workflow/index.js';

// fault proxies (DESIGN §10); the MCP proxy loads the SDK only when started
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
} from './proxies/tcp/index.js';
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
} from './proxies/llm/index.js';
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
} from './proxies/mcp/index.js';
