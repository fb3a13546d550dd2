export { runSurvival, resolveSurvivalConfig, type SurvivalOptions, type SurvivalTimelineEntry, type ResolvedSurvivalConfig } from './run.js';
export { runSurvivalOnTarget } from './on-target.js';
export { SurvivalController, type SurvivalStatus } from './controller.js';
export { planAction, parseActionKinds, DEFAULT_SURVIVAL_ACTIONS, type TargetView } from './plan.js';
export { driftStats } from './drift.js';
export { survivalToScenario, survivalToScenarioYaml, type ScenarioDraft } from './to-scenario.js';
export { replayPlanFromReport, type ReplayPlan } from './replay.js';
