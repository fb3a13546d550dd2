/**
 * Public API of chaos-arena (DESIGN §2): the verbs a program embedding the arena needs (run a scenario
 * or survival on a target, regress, serve, load and validate scenario, target and strategy files), the
 * classes they are built from, and their types. Only re-exports. Proxies, targets, stores and the
 * server are subpath exports (`chaos-arena/proxies`, `/targets`, `/stores`, `/server`); anything named
 * nowhere is internal and free to change. test/unit/public-api.test.ts pins every list, so the public
 * API changes only on purpose. Importing this module loads neither better-sqlite3 nor the MCP SDK.
 */

// errors: every failure the library throws carries a code, an exit code and an HTTP status
export {
  ArenaError,
  UsageError,
  NotFoundError,
  ConflictError,
  GateFailedError,
  RuntimeError,
  CancelledError,
  isArenaError,
  type ArenaErrorOptions,
  type ArenaErrorInit,
} from './shared/errors.js';

// what varies: time, randomness, durations
export { parseDuration, formatDuration } from './shared/duration.js';
export { systemClock, ManualClock, type Clock, type TimerHandle } from './shared/clock.js';
export { createRandom, type Random } from './shared/random.js';

// faults (DESIGN §3)
export { ACTION_TYPES, isActionType, type ActionType, type Action, type Result } from './arena/action.js';
export { LLM_ERROR_TYPES, type LlmErrorType } from './protocol/llm-faults.js';
export { createAction, type CreateActionOptions } from './arena/actions.js';

// targets: the interfaces a target implements (DESIGN §9), the default one, and target files
export type * from './arena/providers.js';
export { createEmbeddedTarget, type EmbeddedTargetOptions } from './targets/embedded/index.js';
export { loadTargetFile, type LoadedTargetFile, type TargetBuildOptions } from './targets/file.js';

// the arena: injector, service, measurement, score
export { Injector, type SlowAgentOptions, type InjectionReport } from './arena/injector.js';
export { MetricsCollector, type MetricsSnapshot, type TypeMetrics } from './arena/metrics.js';
export {
  ArenaService,
  type ArenaServiceOptions,
  type ArenaStats,
  type ArenaEvent,
  type ArenaEventType,
} from './arena/service.js';
export { calculateScore, calculateScoreV1, gradeFor, type InjectionStats, type GateOn } from './arena/score.js';
export type {
  EventStore,
  StoredEvent,
  NewEvent,
  EventFilter,
  SubscribeOptions,
  EventQuery,
  DataCondition,
  QueryableEventStore,
} from './arena/event-store.js';
export type { FlightBridge, EvolutionBridge, EvidenceStore, Evidence } from './arena/bridges.js';

// scenarios: load, validate, run on a target (or on an ArenaService you built)
export {
  loadScenario,
  loadScenarioFile,
  validateScenario,
  checkScenarioText,
  checkScenarioFile,
  runScenarioOnTarget,
  runScenarioReport,
  type Scenario,
  type ScenarioActionSpec,
  type ScenarioStep,
  type ScenarioConfig,
  type ScenarioProblem,
  type ScenarioValidation,
  type RunScenarioOptions,
  type RunOnTargetOptions,
} from './arena/scenario/index.js';

// survival: random faults for a while, on a target (or on an ArenaService), and its run as a scenario
export {
  runSurvivalOnTarget,
  runSurvival,
  survivalToScenario,
  type SurvivalOptions,
  type SurvivalTimelineEntry,
  type SurvivalStatus,
  type ScenarioDraft,
} from './arena/survival/index.js';

// trials: pass^k of a target's tasks under faults and clean, with behaviour and cost
export {
  runTrialsOnTarget,
  type RunTrialsOptions,
  type TrialsReport,
  type TrialsBody,
  type TaskReport,
  type ArmStats,
  type SurfacePoint,
  type GateResult,
  type TrialTasks,
  type TrialTaskInfo,
  type TrialMark,
  type TrialAnswer,
  type ModelPrice,
  type TrialGates,
  type MinPassK,
} from './arena/trials/index.js';

// regress: two strategies, scores compared with an honest statistical verdict
export {
  RegressionTester,
  EnsembleScorer,
  analyzeScores,
  createTargetArena,
  dimensionScorer,
  resilienceScorer,
  readScoresFile,
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
  loadStrategyFile,
  DEFAULT_STRATEGY,
  type Strategy,
  type StrategyPatch,
  type WorkflowRecovery,
} from './runtime/strategy.js';

// reports: the documents runs return (and --json prints)
export type * from './arena/report.js';

// the container and the HTTP API (DESIGN §7); the router, listeners and handlers are in chaos-arena/server
export {
  bootstrap,
  RootLifecycleError,
  type ArenaRoot,
  type RootServices,
  type BootstrapConfig,
  type ArenaPort,
  type RuntimePort,
  type LlmPort,
  type McpPort,
  type StreamPort,
  type RootStatus,
} from './bootstrap/index.js';
export { serveRoot, type ServeOptions, type RunningServer } from './server/serve.js';

// library clients and workflows
export {
  Client,
  SimpleClient,
  WorkflowClient,
  NotConfiguredError,
  ClientClosedError,
  ClientCloseError,
  type ClientServiceName,
  type ClientServices,
  type SimpleClientOptions,
  type ServiceCloseFailure,
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
  type AgentService,
  type AgentResponse,
  type AgentExecuteOptions,
  type BuiltinAgentServices,
  type ClientHealthReport,
  type ClientServiceHealth,
} from './client/index.js';
export {
  WorkflowService,
  AgentRegistry,
  WORKFLOW_STATUS,
  STEP_STATUS,
  validateWorkflow,
  loadWorkflowFile,
  type WorkflowServiceOptions,
  type WorkflowRequest,
  type WorkflowResponse,
  type WorkflowSummary,
  type WorkflowProblem,
  type WorkflowValidation,
  type ValidateOptions,
  type WorkflowTextCheck,
  type ExecuteWorkflowOptions,
} from './workflow/index.js';
export type * from './workflow/types.js';
