/**
 * The verdict on two samples of scores: which test decides, the difference and
 * its interval, effect size, the distribution-free check, and — when nothing
 * was found — how large a difference the data could have detected.
 */
import { effectSize, type EffectSize } from './stats/effect-size.js';
import { mannWhitneyU, type MannWhitneyResult } from './stats/mann-whitney.js';
import { binomial, exactPermutationTest, exactSignFlipTest, type ExactTestResult } from './stats/permutation.js';
import { minimumDetectableDifference, twoSidedPower } from './stats/power.js';
import { summarize, type SampleSummary } from './stats/summary.js';
import { pairedTTest, welchTTest, type TTestResult } from './stats/t-test.js';

/**
 * `cannot decide`: the scores have no variation and too few runs for the exact test to reach the
 * threshold at all; `undecided_reason` says why and how many runs would do
 */
export type RegressionDecision = 'candidate better' | 'candidate worse' | 'no significant difference' | 'cannot decide';

/**
 * A sample counts as constant when its spread is below this fraction of its
 * magnitude: [0.1 + 0.2, 0.3] differ by 5.6e-17, which is rounding, not variation.
 */
export const CONSTANT_TOLERANCE = 1e-9;

export interface ArmSummary extends SampleSummary {
  scores: number[];
}

export interface PowerStatement {
  /** the true difference (score points) the statement is about */
  difference: number;
  /** probability the test would have declared that difference significant (exact, noncentral t) */
  power: number;
  /** the true difference this test would detect with 80% power */
  minimum_detectable_difference: number;
}

export interface RegressionAnalysis {
  baseline: ArmSummary;
  candidate: ArmSummary;
  /** significance level (two-sided) */
  alpha: number;
  /** the t-test of these scores: paired when runs are paired by seed, else Welch */
  test: 'paired' | 'welch';
  /** the method the decision rests on: the t-test, or the exact test when the scores have no variation */
  method: "Welch's t-test" | 'paired t-test' | ExactTestResult['method'];
  /** present when the scores have no variation: the exact permutation test that decides instead of the t-test */
  exact_test?: ExactTestResult;
  /** candidate − baseline (mean per-seed difference when paired) */
  difference: number;
  ci: [number, number];
  /** confidence level of `ci` (1 − the level used at the deciding look) */
  ci_level: number;
  /** the deciding test's p-value (the exact test's when `exact_test` decides; not defined when it cannot) */
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
  /** present when no significant difference was found and power can be computed */
  power?: PowerStatement;
  /** why there is no power statement although nothing was found */
  power_unavailable?: string;
  /** set when decision is `cannot decide`: why the test has nothing to decide on */
  undecided_reason?: string;
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

export function analyzeScores(
  baseline: readonly number[],
  candidate: readonly number[],
  options: AnalyzeOptions = {},
): RegressionAnalysis {
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
  const constant = noVariation(baseline, candidate, isPaired);
  // no variation: the t-test has no standard error, an exact permutation test needs none
  const exact =
    constant === undefined
      ? undefined
      : isPaired
        ? exactSignFlipTest(baseline, candidate)
        : exactPermutationTest(baseline, candidate);
  const noDifference =
    exact !== undefined && exact.p === 1 && isConstant([exact.difference, 0], [...baseline, ...candidate]);
  const undecided =
    exact === undefined || noDifference || exact.p <= threshold
      ? undefined
      : undecidedReason(constant!, exact, threshold, isPaired, baseline.length, candidate.length);
  const p = exact ? exact.p : primary.p;
  const difference = exact ? exact.difference : primary.difference;
  const significant = undecided === undefined && !noDifference && p <= threshold && difference !== 0;
  const decision: RegressionDecision =
    undecided !== undefined
      ? 'cannot decide'
      : !significant
        ? 'no significant difference'
        : difference > 0
          ? 'candidate better'
          : 'candidate worse';
  const minimumEffect = Math.abs(options.minimumEffect ?? DEFAULT_MINIMUM_EFFECT);
  const analysis: RegressionAnalysis = {
    baseline: { ...summarize(baseline), scores: [...baseline] },
    candidate: { ...summarize(candidate), scores: [...candidate] },
    alpha,
    test: primary.test,
    method: exact ? exact.method : primary.test === 'paired' ? 'paired t-test' : "Welch's t-test",
    ...(exact ? { exact_test: exact } : {}),
    difference: primary.difference,
    // without variation t and the interval are not defined (a 0 standard error made p = 0 look like certainty)
    ci: exact ? [Number.NaN, Number.NaN] : primary.ci,
    ci_level: ciLevel,
    p_value: undecided !== undefined ? Number.NaN : p,
    threshold,
    t: exact ? Number.NaN : primary.t,
    df: primary.df,
    welch,
    ...(paired ? { paired } : {}),
    mann_whitney: mannWhitneyU(baseline, candidate),
    effect_size: effectSize(baseline, candidate, isPaired),
    decision,
  };
  if (exact) {
    if (undecided !== undefined) analysis.undecided_reason = undecided;
    if (!significant)
      analysis.power_unavailable = 'no variation: a test without a standard error has no power to state';
    return analysis;
  }
  if (!significant) {
    const power = twoSidedPower(minimumEffect, primary.se, primary.df, threshold);
    const mdd = minimumDetectableDifference(primary.se, primary.df, threshold);
    if (Number.isFinite(power) && Number.isFinite(mdd)) {
      analysis.power = { difference: minimumEffect, power, minimum_detectable_difference: mdd };
    } else {
      analysis.power_unavailable = `the power cannot be computed from a standard error of ${primary.se} with ${primary.df} degrees of freedom`;
    }
  }
  return analysis;
}

/**
 * What a sequential look needs and nothing more: the paired p-value (NaN
 * without variation, as in analyzeScores) and the sign of the difference. The
 * full analysis (Mann–Whitney, effect size, power) is computed once, at the
 * end; at every look it cost ~10 ms of a 4,000-trial simulation's trial.
 */
export function pairedLook(
  baseline: readonly number[],
  candidate: readonly number[],
): { p_value: number; difference: number } {
  const test = pairedTTest(baseline, candidate);
  return {
    p_value: noVariation(baseline, candidate, true) !== undefined ? Number.NaN : test.p,
    difference: test.difference,
  };
}

/** why the scores give a t-test nothing to decide on, or undefined when they vary */
function noVariation(baseline: readonly number[], candidate: readonly number[], isPaired: boolean): string | undefined {
  if (isPaired) {
    const differences = candidate.map((c, i) => c - baseline[i]!);
    if (!isConstant(differences, [...baseline, ...candidate])) return undefined;
    return `every paired difference is the same (${formatValue(differences[0]!)})`;
  }
  if (!isConstant(baseline, baseline) || !isConstant(candidate, candidate)) return undefined;
  return `both arms are constant (baseline ${formatValue(baseline[0]!)}, candidate ${formatValue(candidate[0]!)})`;
}

/** why the exact test cannot reach the threshold: these sizes allow no smaller p, and how many runs would */
function undecidedReason(
  constant: string,
  exact: ExactTestResult,
  threshold: number,
  isPaired: boolean,
  n1: number,
  n2: number,
): string {
  // smallest two-sided p with n runs per arm: 2 / 2^n sign patterns, or 2 / C(2n, n) splits
  const minP = (n: number) => (isPaired ? 2 / 2 ** n : 2 / binomial(2 * n, n));
  let runs = 2;
  while (minP(runs) > threshold && runs < 64) runs++;
  const sizes = isPaired ? `${n1} pairs` : `${n1} + ${n2} runs`;
  return `${constant}: without variation the t-test is not defined, and the ${exact.method} test on ${sizes} gives p = ${formatValue(exact.p)}; the smallest p it can give is ${formatValue(exact.min_p)}, above ${formatValue(threshold)}: at least ${runs} runs per arm can decide`;
}

/** spread within a relative tolerance of the values' magnitude, so the verdict does not hang on binary rounding */
export function isConstant(values: readonly number[], scaleFrom: readonly number[]): boolean {
  if (values.length === 0) return true;
  const scale = Math.max(...scaleFrom.map(Math.abs));
  const min = Math.min(...values);
  const max = Math.max(...values);
  return max - min <= CONSTANT_TOLERANCE * scale;
}

function formatValue(x: number): string {
  return String(Number(x.toPrecision(12)));
}
