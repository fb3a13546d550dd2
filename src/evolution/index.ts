export { runEvolution, type EvolutionOptions, type EvolutionResult, type GenerationStats, type FitnessFunction, type FitnessContext } from './ga.js';
export { runIdleEvolution, runtimeIdleProbe, type IdleEvolutionOptions, type IdleEvolutionResult } from './idle.js';
export { createSurvivalFitness, type SurvivalFitnessOptions } from './survival-fitness.js';
export { proposePatch, PROPOSAL_RULES, EMERGENCY_PRIORITY, type PatchProposal } from './proposals.js';
export { EvolutionCoordinator, DEFAULT_POLICY, EVOLUTION_DECISIONS_STREAM, type DecisionPolicy, type Decision, type DecisionOutcome, type CoordinatorOptions, type CoordinatorStatus, type StrategyHolder } from './coordinator.js';
export { ArenaEvolutionBridge, createRuntimeEvolution, type RuntimeEvolution, type RuntimeEvolutionOptions } from './bridge.js';
export { estimateStrategyFitness } from './estimate.js';
export { EvolutionService, parseRunRequest, type EvolutionRun, type EvolutionRunRequest, type EvolutionServiceOptions } from './service.js';
export { GENES, mutate, crossover, diversity } from './genome.js';
