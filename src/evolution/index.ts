export {
  runEvolution,
  type EvolutionOptions,
  type EvolutionResult,
  type GenerationStats,
  type FitnessFunction,
  type FitnessContext,
} from './ga.js';
export { runIdleEvolution, runtimeIdleProbe, type IdleEvolutionOptions, type IdleEvolutionResult } from './idle.js';
export { createRuntimeEvolution } from './bridge.js';
export { EvolutionService } from './service.js';
export { startLiveEvolution, type LiveEvolution, type LiveEvolutionStatus } from './live.js';
