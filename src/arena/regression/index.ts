/** Public surface of the regression module (re-exported from src/index.ts). */
export { RegressionTester, type RegressionResult } from './tester.js';
export { analyzeScores, DEFAULT_MINIMUM_EFFECT, type RegressionAnalysis, type RegressionDecision, type ArmSummary, type PowerStatement } from './analysis.js';
export { EnsembleScorer, resilienceScorer, dimensionScorer, type Scorer, type WeightedScorer, type ScoreDimension } from './scorer.js';
export { groupSequentialDesign, obrienFlemingSpending, evaluateLook, type SequentialDesign, type SequentialOptions } from './sequential.js';
export { readScoresFile, extractScores } from './score-files.js';
export { createTargetArena, type TargetArenaOptions, type ScenarioOnTargetRunner } from './target-arena.js';
export { welchTTest, pairedTTest, type TTestResult, type Alternative } from './stats/t-test.js';
export { mannWhitneyU, type MannWhitneyResult } from './stats/mann-whitney.js';
export { effectSize, type EffectSize } from './stats/effect-size.js';
export { studentTCdf, studentTSf, studentTQuantile, normalCdf, normalQuantile } from './stats/distributions.js';
export type * from './types.js';
