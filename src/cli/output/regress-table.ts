/** `arena regress`'s verdict as tables for a terminal (the JSON document is the verdict itself). */
import Table from 'cli-table3';
import chalk from 'chalk';
import {
  formatLevel,
  formatNumber,
  formatP,
  formatPercent,
  signed,
  type RegressionVerdict,
} from '../../arena/regression/verdict.js';
import { renderFitted } from './fit.js';

const PLAIN_STYLE = { head: [], border: [] };

export function renderRegressionTable(v: RegressionVerdict, width?: number): string {
  const out: string[] = [];
  const names =
    v.mode === 'strategies'
      ? { baseline: v.baseline_name ?? 'baseline', candidate: v.candidate_name ?? 'candidate' }
      : { baseline: v.baseline_files.join(', '), candidate: v.candidate_files.join(', ') };
  if (v.mode === 'strategies' && v.interrupted)
    out.push(chalk.red(`INTERRUPTED after ${v.runs_used} complete pairs: partial figures, not a verdict`));
  out.push(
    chalk.bold('Regression test') +
      chalk.dim(
        v.mode === 'strategies' ? ` (runs paired by seed, seed ${v.seed}, scorer ${v.scorer})` : ' (recorded scores)',
      ),
  );
  const arms = new Table({ head: ['arm', 'source', 'n', 'mean', 'sd'], style: PLAIN_STYLE });
  arms.push(['baseline', names.baseline, String(v.baseline.n), v.baseline.mean.toFixed(2), v.baseline.sd.toFixed(2)]);
  arms.push([
    'candidate',
    names.candidate,
    String(v.candidate.n),
    v.candidate.mean.toFixed(2),
    v.candidate.sd.toFixed(2),
  ]);
  out.push(renderFitted(arms, width));

  // long reasons wrap inside the cell instead of widening the table past the terminal
  const stats = new Table({ style: PLAIN_STYLE, wordWrap: true, colWidths: [null, 80] as never });
  const level = `${formatLevel(v.ci_level)}% CI`;
  const interval = v.ci.every(Number.isFinite)
    ? `, ${level} ${signed(v.ci[0])} … ${signed(v.ci[1])}`
    : ', no interval (no variation)';
  stats.push({ difference: `${signed(v.difference)} (candidate − baseline)${interval}` });
  const testName = v.test === 'paired' ? 'paired t-test on per-seed differences' : "Welch's t-test";
  stats.push({
    test: v.exact_test
      ? `${v.exact_test.method}: p = ${formatP(v.exact_test.p)} over ${v.exact_test.permutations} relabellings (no variation, so no ${testName})`
      : `${testName}: t = ${formatNumber(v.t)}, df = ${formatNumber(v.df)}`,
  });
  const thresholdNote =
    v.threshold !== v.alpha
      ? ` (boundary of the deciding look: p ≤ ${formatP(v.threshold)}; alpha ${v.alpha} overall)`
      : ` (alpha ${v.alpha})`;
  stats.push({ 'p-value': `${formatP(v.p_value)}${thresholdNote}` });
  if (v.test === 'paired')
    stats.push({
      "Welch's t-test": `t = ${formatNumber(v.welch.t)}, df = ${formatNumber(v.welch.df)}, p = ${formatP(v.welch.p)}`,
    });
  const es = v.effect_size;
  stats.push({
    'effect size': `Hedges' g = ${formatNumber(es.hedges_g)} (${es.magnitude}), Cohen's d = ${formatNumber(es.cohens_d)}${es.paired_dz !== undefined ? `, d_z = ${formatNumber(es.paired_dz)}` : ''}`,
  });
  const mw = v.mann_whitney;
  stats.push({
    'Mann–Whitney U': `U = ${mw.u}, p = ${formatP(mw.p)} (${mw.method}${mw.ties ? ', ties' : ''}), P(candidate > baseline) = ${mw.common_language.toFixed(2)}`,
  });
  stats.push({
    decision: v.undecided_reason ? `${decisionText(v.decision)}: ${v.undecided_reason}` : decisionText(v.decision),
  });
  if (v.power_unavailable) stats.push({ power: `unavailable: ${v.power_unavailable}` });
  if (v.power) {
    stats.push({
      power: `${formatPercent(v.power.power)} to detect a true difference of ±${formatNumber(v.power.difference)} points; 80% power needs ±${formatNumber(v.power.minimum_detectable_difference)}`,
    });
  }
  if (v.mode === 'strategies') {
    const seq = v.sequential;
    const detail = seq
      ? `adaptive: ${seq.looks.length} look${seq.looks.length === 1 ? '' : 's'}, ${seq.stopped === 'efficacy' ? 'stopped early on a clear effect' : seq.stopped === 'futility' ? 'stopped early for futility' : 'reached the maximum'}`
      : 'fixed';
    stats.push({ 'runs used': `${v.runs_used} of ${v.max_runs} per arm (${detail})` });
  } else {
    stats.push({ 'runs used': `${v.baseline.n} baseline, ${v.candidate.n} candidate (recorded)` });
  }
  out.push(renderFitted(stats, width));
  return `${out.join('\n')}\n`;
}

function decisionText(decision: RegressionVerdict['decision']): string {
  if (decision === 'candidate better') return chalk.green(decision);
  if (decision === 'candidate worse') return chalk.red(decision);
  return chalk.yellow(decision);
}
