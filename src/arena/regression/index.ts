/** Public surface of the regression module (re-exported from src/index.ts). */
export { RegressionTester, type RegressionResult } from './tester.js';
export {
  analyzeScores,
  DEFAULT_MINIMUM_EFFECT,
  type RegressionAnalysis,
  type RegressionDecision,
  type ArmSummary,
  type PowerStatement,
} from './analysis.js';
export {
  EnsembleScorer,
  resilienceScorer,
  dimensionScorer,
  type Scorer,
  type WeightedScorer,
  type ScoreDimension,
} from './scorer.js';
export { readScoresFile, extractScores } from './score-files.js';
export { createTargetArena, type TargetArenaOptions, type ScenarioOnTargetRunner } from './target-arena.js';
export type { TTestResult } from './stats/t-test.js';
export type { MannWhitneyResult } from './stats/mann-whitney.js';
export type { EffectSize } from './stats/effect-size.js';
export type * from './types.js';
