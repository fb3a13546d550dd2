/**
 * A regression verdict as the user sees it, whoever asked (CLI or HTTP): the document, when it
 * fails the gate and why, and the number formats its text uses.
 */
import type { RegressionAnalysis } from './analysis.js';
import type { RegressionResult } from './tester.js';

/** what --json prints and what the table shows: a run result, or an analysis of recorded scores */
export type RegressionVerdict =
  | (RegressionResult & { mode: 'strategies' })
  | (RegressionAnalysis & { mode: 'scores'; baseline_files: string[]; candidate_files: string[] });

/** why the verdict fails the gate (exit 1, a JUnit failure), or undefined when it passes */
export function gateFailure(v: RegressionVerdict, failOnNoImprovement: boolean): string | undefined {
  const summary = `difference ${signed(v.difference)}, p = ${formatP(v.p_value)}`;
  if (v.decision === 'candidate worse')
    return `regression: the candidate is significantly worse than the baseline (${summary})`;
  // too few constant runs to decide, but the candidate scored lower: a gate must not pass what it cannot rule out
  if (v.decision === 'cannot decide' && v.difference < 0)
    return `possible regression: the candidate scored lower (difference ${signed(v.difference)}) and the test cannot decide (${v.undecided_reason ?? 'no variation'})`;
  if (failOnNoImprovement && v.decision === 'cannot decide')
    return `no improvement shown: the test cannot decide (${v.undecided_reason ?? 'no variation'})`;
  if (failOnNoImprovement && v.decision !== 'candidate better') {
    return `no improvement: the candidate is not significantly better than the baseline (${summary})`;
  }
  return undefined;
}

/** one line: the decision and the figures behind it */
export function verdictSummary(v: RegressionVerdict): string {
  return `decision: ${v.decision}; difference ${signed(v.difference)} (${signed(v.ci[0])} … ${signed(v.ci[1])}), p = ${formatP(v.p_value)}, n = ${v.baseline.n}/${v.candidate.n}`;
}

export function signed(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  const text = formatNumber(Math.abs(n));
  return n > 0 ? `+${text}` : n < 0 ? `−${text}` : text;
}

export function formatNumber(n: number): string {
  if (Number.isNaN(n)) return 'not defined';
  if (!Number.isFinite(n)) return n > 0 ? '∞' : '−∞';
  return Math.abs(n) >= 100
    ? n.toFixed(1)
    : +n.toFixed(3) === 0 && n !== 0
      ? n.toExponential(2)
      : String(+n.toFixed(3));
}

export function formatPercent(p: number): string {
  if (p > 0.99) return '>99%';
  if (p < 0.01) return '<1%';
  return `${Math.round(p * 100)}%`;
}

export function formatP(p: number): string {
  if (Number.isNaN(p)) return 'not defined';
  if (p === 0) return '0';
  if (p < 1e-4) return p.toExponential(2);
  return String(+p.toFixed(4));
}

/** a confidence level as a percentage with enough digits to never round up to 100 */
export function formatLevel(level: number): string {
  const decimals = level < 1 ? Math.max(0, Math.ceil(-Math.log10(1 - level)) - 1) : 0;
  return String(+(level * 100).toFixed(Math.min(decimals, 12)));
}
