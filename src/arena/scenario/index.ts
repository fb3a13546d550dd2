export * from './types.js';
export { validateScenario } from './validate.js';
export { loadScenario, loadScenarioFile, checkScenarioText, checkScenarioFile, MAX_SCENARIO_BYTES } from './load.js';
export { runScenarioReport, type RunScenarioOptions } from './run.js';
export { runScenarioOnTarget, runScenario, type RunOnTargetOptions } from './target.js';
