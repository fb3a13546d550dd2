export * from './types.js';
export { validateScenario, formatPath } from './validate.js';
export { loadScenario, loadScenarioFile, checkScenarioText, checkScenarioFile, formatProblem, MAX_SCENARIO_BYTES, MAX_ALIAS_COUNT } from './load.js';
export { runScenarioReport, DEFAULT_SNAPSHOT_INTERVAL_MS, type RunScenarioOptions } from './run.js';
export { runScenarioOnTarget, runScenario, type RunOnTargetOptions } from './target.js';
export { RANDOM_TARGET, expectationOf } from './schedule.js';
