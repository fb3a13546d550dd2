/**
 * The verdict on two samples of scores: which test decides, the difference and
 * its interval, effect size, the distribution-free check, and — when nothing
 * was found — how large a difference the data could have detected.
 */
import { effectSize, type EffectSize } from './stats/effect-size.js';
import { mannWhitneyU, type MannWhitneyResult } from './stats/mann-whitney.js';
import { minimumDetectableDifference, twoSidedPower } from './stats/power.js';
import { summarize, type SampleSummary } from './stats/summary.js';
import { pairedTTest, welchTTest, type TTestResult } from './stats/t-test.js';

export type RegressionDecision = 'candidate better' | 'candidate worse' | 'no significant difference';

export interface ArmSummary extends SampleSummary {
  scores: number[];
}

export interface PowerStatement {
  /** the true difference (score points) the statement is about */
  difference: number;
  /** probability the test would have declared that difference significant */
  power: number;
  /** the true difference this test would detect with 80% power */
  minimum_detectable_difference: number;
}

export interface RegressionAnalysis {
  baseline: ArmSummary;
  candidate: ArmSummary;
  /** significance level (two-sided) */
  alpha: number;
  /** the test the decision rests on: paired when runs are paired by seed, else Welch */
  test: 'paired' | 'welch';
  /** candidate − baseline (mean per-seed difference when paired) */
  difference: number;
  ci: [number, number];
  /** confidence level of `ci` (1 − the level used at the deciding look) */
  ci_level: number;
  p_value: number;
  /** the p-value the decision compared against: alpha, or a sequential look's nominal level */
  threshold: number;
  t: number;
  df: number;
  welch: TTestResult;
  paired?: TTestResult;
  mann_whitney: MannWhitneyResult;
  effect_size: EffectSize;
  decision: RegressionDecision;
  /** present when no significant difference was found */
  power?: PowerStatement;
}

export interface AnalyzeOptions {
  /** two-sided significance level, default 0.05 */
  alpha?: number;
  /** use the paired test (samples are pairs: same seed per index) */
  paired?: boolean;
  /** the p-value threshold to decide at, when it is not alpha (a sequential look) */
  threshold?: number;
  /** the difference the power statement is about, default 5 score points */
  minimumEffect?: number;
}

export const DEFAULT_MINIMUM_EFFECT = 5;

export function analyzeScores(baseline: readonly number[], candidate: readonly number[], options: AnalyzeOptions = {}): RegressionAnalysis {
  const alpha = options.alpha ?? 0.05;
  if (!(alpha > 0 && alpha < 0.5)) throw new RangeError(`alpha must be in (0, 0.5), got ${alpha}`);
  const threshold = options.threshold ?? alpha;
  const isPaired = options.paired === true;
  const ciLevel = 1 - threshold;
  // the interval matches the decision: at a sequential look it is the repeated CI at that look's level
  const tOptions = { confidence: Math.min(1 - 1e-12, Math.max(ciLevel, 1e-6)) };
  const welch = welchTTest(baseline, candidate, tOptions);
  const paired = isPaired ? pairedTTest(baseline, candidate, tOptions) : undefined;
  const primary = paired ?? welch;
  const significant = primary.p <= threshold && primary.difference !== 0;
  const decision: RegressionDecision = !significant
    ? 'no significant difference'
    : primary.difference > 0
      ? 'candidate better'
      : 'candidate worse';
  const minimumEffect = Math.abs(options.minimumEffect ?? DEFAULT_MINIMUM_EFFECT);
  const analysis: RegressionAnalysis = {
    baseline: { ...summarize(baseline), scores: [...baseline] },
    candidate: { ...summarize(candidate), scores: [...candidate] },
    alpha,
    test: primary.test,
    difference: primary.difference,
    ci: primary.ci,
    ci_level: ciLevel,
    p_value: primary.p,
    threshold,
    t: primary.t,
    df: primary.df,
    welch,
    ...(paired ? { paired } : {}),
    mann_whitney: mannWhitneyU(baseline, candidate),
    effect_size: effectSize(baseline, candidate, isPaired),
    decision,
  };
  if (!significant) {
    analysis.power = {
      difference: minimumEffect,
      power: twoSidedPower(minimumEffect, primary.se, primary.df, threshold),
      minimum_detectable_difference: minimumDetectableDifference(primary.se, primary.df, threshold),
    };
  }
  return analysis;
}
