/**
 * The package's public surface, pinned: a name added to or dropped from src/index.ts fails this
 * test until the list below changes with it, so the public API changes only on purpose (and the
 * diff shows the decision). Types are checked by the consumer test (test/e2e/package-consumer).
 */
import { describe, expect, it } from 'vitest';
import * as api from '../../src/index.js';

const PUBLIC_VALUES = [
  'ACTION_PARAMETERS', 'ACTION_TYPES', 'ANY_VERSION', 'ARENA_STREAM', 'AgentRegistry', 'ArenaError',
  'ArenaService', 'CancelledError', 'Client', 'ClientCloseError', 'ClientClosedError', 'ConflictError',
  'DEFAULT_DB_PATH', 'DEFAULT_FAULT_DURATION_MS', 'DEFAULT_MAX_PARALLEL', 'DEFAULT_MINIMUM_EFFECT',
  'DEFAULT_STRATEGY', 'DEFAULT_SURVIVAL_ACTIONS', 'DEFAULT_TOPOLOGY', 'EnsembleScorer', 'FlightRecorder',
  'FlightService', 'GateFailedError', 'Injector', 'LLMError', 'LLM_ERROR_TYPES', 'LLM_FAULT_TYPE',
  'LLM_PROVIDERS', 'MAX_DURATION_MS', 'MAX_WORKFLOW_FILE_BYTES', 'MCPError', 'MCP_FAULT_TYPES',
  'ManualClock', 'MemoryEventStore', 'MetricsCollector', 'NotConfiguredError', 'NotFoundError',
  'PostgresEventStore', 'PostgresRunQueue', 'RECOVERY_OFF_STRATEGY', 'RECOVERY_STRATEGY', 'ROUTE_GROUPS',
  'RegressionTester', 'RootLifecycleError', 'RuntimeError', 'SCORE_WEIGHTS', 'SELF_TARGETING',
  'SERVICE_NAMES', 'STEP_STATUS', 'SimpleClient', 'SqliteEventStore', 'StepTimeoutError',
  'SurvivalController', 'TARGET_KINDS', 'TCP_FAULT_TYPES', 'UsageError', 'WORKFLOW_RECOVERY',
  'WORKFLOW_STATUS', 'WorkflowClient', 'WorkflowService', 'actionProblems', 'analyzeScores',
  'assertValidWorkflow', 'bootstrap', 'calculateScore', 'checkConformance', 'checkScenarioFile',
  'checkScenarioText', 'checkWorkflowText', 'connectorFor', 'createAction', 'createApp',
  'createBuiltinRegistry', 'createEmbeddedTarget', 'createLLMClient', 'createLocalModel', 'createMCPSession',
  'createOpenAICompatibleProvider', 'createProcessTarget', 'createQueueArena', 'createRandom',
  'createRemoteTarget', 'createRuntime', 'createTargetArena', 'diagnose', 'dimensionScorer',
  'durationProblem', 'embeddedTargetFactory', 'errorMessage', 'executeWorkflow', 'extractScores',
  'formatDuration', 'gateOutcome', 'getEmbeddedRuntime', 'gradeFor', 'isActionType', 'isArenaError',
  'isLLMError', 'isLoopbackHost', 'listRecordedRuns', 'listen', 'loadScenario', 'loadScenarioFile',
  'loadStrategyFile', 'loadTargetFile', 'loadWorkflow', 'loadWorkflowFile', 'mergeStrategy',
  'openEventStore', 'openSqliteEventStore', 'parseAction', 'parseDuration', 'parseStrategy',
  'parseStrategyPatch', 'parseStrategyText', 'processTargetSchema', 'readScoresFile', 'recordRunEvents',
  'renderTemplate', 'replayPlanFromReport', 'resilienceScorer', 'resolveSurvivalConfig', 'runEvolution',
  'runIdleEvolution', 'runScenario', 'runScenarioOnTarget', 'runScenarioReport', 'runSurvival',
  'runSurvivalOnTarget', 'runWorker', 'serveRoot', 'serveTargetProtocol', 'startHttpMcpProxy',
  'startLlmControl', 'startLlmProxy', 'startMcpControl', 'startMeasurement', 'startStdioMcpProxy',
  'startTcpFaultProxy', 'startTcpProxy', 'stdioConnector', 'streamableHttpConnector', 'survivalToScenario',
  'survivalToScenarioYaml', 'systemClock', 'validateClientConfig', 'validateScenario', 'validateWorkflow'
];

describe('public API', () => {
  it('exports exactly the pinned runtime names', () => {
    expect(Object.keys(api).sort()).toEqual([...PUBLIC_VALUES].sort());
  });

  it('leaves statistics internals, GA operators and router internals out', () => {
    for (const internal of ['welchTTest', 'mannWhitneyU', 'studentTCdf', 'normalQuantile', 'obrienFlemingSpending', 'mutate', 'crossover', 'GENES', 'Router', 'SSEStream', 'ArenaHandler', 'formatFrame']) {
      expect(api).not.toHaveProperty(internal);
    }
  });
});
