/**
 * The package's public surface, pinned (DESIGN §2 "The public API"): a name added to or dropped from
 * src/index.ts or a subpath entry fails this test until the list below changes with it, so the public
 * API changes only on purpose (and the diff shows the decision; CHANGELOG.md says it to users). Types
 * are checked by the consumer tests (test/e2e/package-consumer*.test.ts), from a packed tarball.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as root from '../../src/index.js';
import * as stores from '../../src/events/index.js';
import * as proxies from '../../src/proxies/index.js';
import * as server from '../../src/server/index.js';
import * as targets from '../../src/targets/index.js';

/** `import … from 'chaos-arena'`: the verbs, the seed's names, the errors; at most 60 (DESIGN §2) */
const ROOT = [
  // errors
  'ArenaError',
  'CancelledError',
  'ConflictError',
  'GateFailedError',
  'NotFoundError',
  'RuntimeError',
  'UsageError',
  'isArenaError',
  // time, randomness, durations
  'ManualClock',
  'createRandom',
  'formatDuration',
  'parseDuration',
  'systemClock',
  // faults
  'ACTION_TYPES',
  'LLM_ERROR_TYPES',
  'createAction',
  'isActionType',
  // targets
  'createEmbeddedTarget',
  'loadTargetFile',
  // the arena and its score
  'ArenaService',
  'Injector',
  'MetricsCollector',
  'calculateScore',
  'calculateScoreV1',
  'gradeFor',
  // scenarios
  'checkScenarioFile',
  'checkScenarioText',
  'loadScenario',
  'loadScenarioFile',
  'runScenarioOnTarget',
  'runScenarioReport',
  'validateScenario',
  // survival
  'runSurvival',
  'runSurvivalOnTarget',
  'survivalToScenario',
  // trials
  'runTrialsOnTarget',
  // regress
  'DEFAULT_STRATEGY',
  'EnsembleScorer',
  'RegressionTester',
  'analyzeScores',
  'createTargetArena',
  'dimensionScorer',
  'loadStrategyFile',
  'readScoresFile',
  'resilienceScorer',
  // the container and serving it
  'RootLifecycleError',
  'bootstrap',
  'serveRoot',
  // clients and workflows
  'AgentRegistry',
  'Client',
  'ClientCloseError',
  'ClientClosedError',
  'NotConfiguredError',
  'STEP_STATUS',
  'SimpleClient',
  'WORKFLOW_STATUS',
  'WorkflowClient',
  'WorkflowService',
  'loadWorkflowFile',
  'validateWorkflow',
];

/** the seed's names, which DESIGN §2 keeps in the root whatever else moves */
const SEED = [
  'ArenaService',
  'Injector',
  'MetricsCollector',
  'RegressionTester',
  'EnsembleScorer',
  'calculateScore',
  'calculateScoreV1',
  'loadScenario',
  'loadScenarioFile',
  'validateScenario',
  'runScenarioReport',
  'bootstrap',
  'Client',
  'SimpleClient',
  'WorkflowClient',
  'WorkflowService',
  'AgentRegistry',
];

const SUBPATHS: Record<string, { module: object; entry: string; values: string[] }> = {
  'chaos-arena/proxies': {
    module: proxies,
    entry: 'proxies/index',
    values: [
      'LLM_FAULT_TYPE',
      'MCP_FAULT_TYPES',
      'TCP_FAULT_TYPES',
      'startHttpMcpProxy',
      'startLlmControl',
      'startLlmProxy',
      'startMcpControl',
      'startStdioMcpProxy',
      'startTcpFaultProxy',
      'startTcpProxy',
    ],
  },
  'chaos-arena/targets': {
    module: targets,
    entry: 'targets/index',
    values: [
      'DEFAULT_MAX_PARALLEL',
      'DEFAULT_STRATEGY',
      'DEFAULT_TOPOLOGY',
      'LlmError',
      'MAX_WORKFLOW_FILE_BYTES',
      'McpSessionError',
      'RECOVERY_OFF_STRATEGY',
      'RECOVERY_STRATEGY',
      'StepTimeoutError',
      'TARGET_KINDS',
      'WORKFLOW_RECOVERY',
      'assertValidWorkflow',
      'checkConformance',
      'checkWorkflowText',
      'connectorFor',
      'createBuiltinRegistry',
      'createEmbeddedTarget',
      'createLlmClient',
      'createLocalModel',
      'createMcpSession',
      'createOpenAICompatibleProvider',
      'createProcessTarget',
      'createRemoteTarget',
      'createRuntime',
      'embeddedTargetFactory',
      'executeWorkflow',
      'getEmbeddedRuntime',
      'isLlmError',
      'loadStrategyFile',
      'loadTargetFile',
      'loadWorkflow',
      'mergeStrategy',
      'parseStrategy',
      'parseStrategyPatch',
      'parseStrategyText',
      'processTargetSchema',
      'renderTemplate',
      'runEvolution',
      'runIdleEvolution',
      'serveTargetProtocol',
      'stdioConnector',
      'streamableHttpConnector',
    ],
  },
  'chaos-arena/stores': {
    module: stores,
    entry: 'events/index',
    values: [
      'ANY_VERSION',
      'DEFAULT_DB_PATH',
      'FlightRecorder',
      'FlightService',
      'MemoryEventStore',
      'PostgresEventStore',
      'PostgresRunQueue',
      'SqliteEventStore',
      'createQueueArena',
      'diagnose',
      'listRecordedRuns',
      'openEventStore',
      'openSqliteEventStore',
      'recordRunEvents',
      'runWorker',
    ],
  },
  'chaos-arena/server': {
    module: server,
    entry: 'server/index',
    values: ['ROUTE_GROUPS', 'createApp', 'isLoopbackHost', 'listen', 'serveRoot'],
  },
};

describe('public API', () => {
  it('the root exports exactly the pinned values, at most 60, the seed names among them', () => {
    expect(Object.keys(root).sort()).toEqual([...ROOT].sort());
    expect(ROOT.length).toBeLessThanOrEqual(60);
    expect(ROOT).toEqual(expect.arrayContaining(SEED));
  });

  for (const [name, { module, values }] of Object.entries(SUBPATHS)) {
    it(`${name} exports exactly the pinned values`, () => {
      expect(Object.keys(module).sort()).toEqual([...values].sort());
    });
  }

  it('package.json maps each subpath to its entry, with a types entry beside it', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      exports: Record<string, string | { types?: string; import?: string }>;
    };
    const expected: Record<string, unknown> = {
      '.': { types: './dist/index.d.ts', import: './dist/index.js' },
      './package.json': './package.json',
    };
    for (const [name, { entry }] of Object.entries(SUBPATHS))
      expected[name.replace('chaos-arena', '.')] = { types: `./dist/${entry}.d.ts`, import: `./dist/${entry}.js` };
    expect(pkg.exports).toEqual(expected);
  });

  it('leaves statistics internals, GA operators and router internals out of every entry', () => {
    const internals = [
      'welchTTest',
      'mannWhitneyU',
      'studentTCdf',
      'normalQuantile',
      'obrienFlemingSpending',
      'mutate',
      'crossover',
      'GENES',
      'Router',
      'SseStream',
      'ArenaHandler',
      'formatFrame',
      'rootInternals',
    ];
    for (const module of [root, ...Object.values(SUBPATHS).map((s) => s.module)])
      for (const internal of internals) expect(module).not.toHaveProperty(internal);
  });
});
