/**
 * Welch's two-sample t-test and the paired t-test, with exact Student-t
 * p-values and confidence intervals. Differences are always candidate − baseline,
 * so a positive difference means the candidate scored higher.
 */
import { studentTQuantile, studentTSf } from './distributions.js';
import { checkSample, summarize } from './summary.js';

export type Alternative = 'two-sided' | 'greater' | 'less';

export interface TTestResult {
  test: 'welch' | 'paired';
  /** candidate − baseline (mean of the per-pair differences for the paired test) */
  difference: number;
  /** standard error of the difference */
  se: number;
  t: number;
  df: number;
  alternative: Alternative;
  p: number;
  /** both one-sided p-values, whatever the alternative */
  p_greater: number;
  p_less: number;
  confidence: number;
  /** confidence interval for the difference at `confidence` (two-sided) */
  ci: [number, number];
  /** true when both arms had no variance: t and p follow from the difference alone */
  degenerate: boolean;
}

export interface TTestOptions {
  alternative?: Alternative;
  /** confidence level of the interval, default 0.95 */
  confidence?: number;
}

/** Welch's t-test of candidate vs baseline (unequal variances, Welch–Satterthwaite df). */
export function welchTTest(
  baseline: readonly number[],
  candidate: readonly number[],
  options: TTestOptions = {},
): TTestResult {
  checkSample(baseline, 'baseline', 2);
  checkSample(candidate, 'candidate', 2);
  const a = summarize(baseline);
  const b = summarize(candidate);
  const va = (a.sd * a.sd) / a.n;
  const vb = (b.sd * b.sd) / b.n;
  const se = Math.sqrt(va + vb);
  const df = se > 0 ? (va + vb) ** 2 / (va ** 2 / (a.n - 1) + vb ** 2 / (b.n - 1)) : a.n + b.n - 2;
  return finish('welch', b.mean - a.mean, se, df, options);
}

/** Paired t-test on the per-pair differences candidate[i] − baseline[i] (same seed i). */
export function pairedTTest(
  baseline: readonly number[],
  candidate: readonly number[],
  options: TTestOptions = {},
): TTestResult {
  checkSample(baseline, 'baseline', 2);
  checkSample(candidate, 'candidate', 2);
  if (baseline.length !== candidate.length) {
    throw new RangeError(
      `a paired test needs as many baseline as candidate values (${baseline.length} vs ${candidate.length})`,
    );
  }
  const d = summarize(candidate.map((c, i) => c - baseline[i]!));
  return finish('paired', d.mean, d.sd / Math.sqrt(d.n), d.n - 1, options);
}

function finish(
  test: TTestResult['test'],
  difference: number,
  se: number,
  df: number,
  options: TTestOptions,
): TTestResult {
  const alternative = options.alternative ?? 'two-sided';
  const confidence = options.confidence ?? 0.95;
  if (!(confidence > 0 && confidence < 1)) throw new RangeError(`confidence must be in (0, 1), got ${confidence}`);
  const degenerate = se === 0;
  // no variance at all: an exact tie is no evidence, any difference is certain
  const t = degenerate ? (difference === 0 ? 0 : Math.sign(difference) * Infinity) : difference / se;
  const pGreater = degenerate ? (difference > 0 ? 0 : difference < 0 ? 1 : 0.5) : studentTSf(t, df);
  const pLess = degenerate ? (difference < 0 ? 0 : difference > 0 ? 1 : 0.5) : studentTSf(-t, df);
  let p: number;
  if (alternative === 'greater') p = pGreater;
  else if (alternative === 'less') p = pLess;
  else p = degenerate ? (difference === 0 ? 1 : 0) : Math.min(1, 2 * Math.min(pGreater, pLess));
  const half = degenerate ? 0 : studentTQuantile(1 - (1 - confidence) / 2, df) * se;
  return {
    test,
    difference,
    se,
    t,
    df,
    alternative,
    p,
    p_greater: pGreater,
    p_less: pLess,
    confidence,
    ci: [difference - half, difference + half],
    degenerate,
  };
}
