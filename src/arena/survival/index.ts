export { runSurvival, resolveSurvivalConfig, type SurvivalOptions, type SurvivalTimelineEntry } from './run.js';
export { runSurvivalOnTarget } from './on-target.js';
export { SurvivalController, type SurvivalStatus } from './controller.js';
export { DEFAULT_SURVIVAL_ACTIONS } from './plan.js';
export { survivalToScenario, survivalToScenarioYaml, type ScenarioDraft } from './to-scenario.js';
export { replayPlanFromReport, scenarioFromPlan, type ReplayPlan } from './replay.js';
