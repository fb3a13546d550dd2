/** The final tables of `arena trials`: pass^k per task and arm, behaviour and cost, the surface, the gates. */
import Table from 'cli-table3';
import chalk from 'chalk';
import type { ArmStats, TrialMarkers, TrialsReport } from '../../arena/trials/report.js';
import { formatDuration } from '../../shared/duration.js';
import { renderFitted } from './fit.js';

const PLAIN_STYLE = { head: [], border: [] };
const COMPACT_CHARS = { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' };

const num = (x: number | null | undefined, digits = 2) =>
  x === null || x === undefined
    ? 'n/m'
    : Number.isInteger(x)
      ? String(x)
      : // a fraction of a cent would print as 0.0000
        Math.abs(x) < 10 ** -digits
        ? x.toExponential(1)
        : x.toFixed(digits);
const pair = (p: { clean: number | null; faulted: number | null }, digits = 2) =>
  `${num(p.clean, digits)} → ${num(p.faulted, digits)}`;

function passCells(arm: ArmStats, ks: readonly number[]): string[] {
  return ks.map((k) => {
    const value = arm.pass_k[String(k)];
    const bounds = arm.pass_k_interval[String(k)];
    return value === undefined
      ? '–'
      : `${value.toFixed(2)}${bounds ? chalk.dim(` [${bounds[0].toFixed(2)},${bounds[1].toFixed(2)}]`) : ''}`;
  });
}

export function renderTrialsTable(report: TrialsReport, width?: number): string {
  const t = report.trials;
  const out: string[] = [];
  out.push(
    chalk.bold(
      `Trials: ${t.n} per task per arm${t.scenario ? `, faults of ${t.scenario}` : ', clean only'} (seed ${t.seed}, ran ${formatDuration(t.duration_ms)}; n/m = not measured)`,
    ),
  );
  const pass = new Table({
    head: ['task', 'arm', 'passed', ...t.k.map((k) => `pass^${k} [95%]`)],
    style: PLAIN_STYLE,
    chars: COMPACT_CHARS,
  });
  for (const task of t.tasks) {
    pass.push([task.id, 'clean', `${task.clean.successes}/${task.clean.n}`, ...passCells(task.clean, t.k)]);
    if (task.faulted)
      pass.push(['', 'faulted', `${task.faulted.successes}/${task.faulted.n}`, ...passCells(task.faulted, t.k)]);
  }
  const mean = (table: Record<string, number> | null) =>
    t.k.map((k) => (table?.[String(k)] === undefined ? '–' : table[String(k)]!.toFixed(2)));
  if (t.tasks.length > 1) {
    pass.push([chalk.bold('overall'), 'clean', '', ...mean(t.overall.clean)]);
    if (t.overall.faulted) pass.push(['', 'faulted', '', ...mean(t.overall.faulted)]);
  }
  out.push(renderFitted(pass, width));
  if (t.scenario) {
    const behaviour = new Table({
      head: ['task', 'LLM calls', 'tool calls', 'runaway', 'dup. effects', 'false success', 'markers', 'tokens', 'usd'],
      style: PLAIN_STYLE,
      chars: COMPACT_CHARS,
    });
    for (const task of t.tasks) {
      const b = task.behaviour;
      behaviour.push([
        task.id,
        pair(b.llm_calls, 1),
        pair(b.tool_calls, 1),
        b.runaway === null ? 'n/m' : b.runaway ? chalk.red('yes') : 'no',
        num(b.duplicate_side_effects),
        num(b.false_success),
        markerCell(b.markers?.faulted),
        pair(task.cost.tokens, 0),
        pair(task.cost.usd, 4),
      ]);
    }
    out.push(
      'Behaviour and cost, clean → faulted (calls: median per trial; markers under faults: context/action/user in N trials; tokens, usd: totals)',
    );
    out.push(renderFitted(behaviour, width));
  }
  if (t.surface) {
    const surface = new Table({
      head: ['intensity', ...t.k.map((k) => `pass^${k}`)],
      style: PLAIN_STYLE,
      chars: COMPACT_CHARS,
    });
    surface.push(['clean', ...mean(t.overall.clean)]);
    for (const point of t.surface) surface.push([String(point.intensity), ...mean(point.pass_k)]);
    out.push('Reliability surface (mean pass^k over tasks)');
    out.push(renderFitted(surface, width));
  }
  const notes: string[] = [];
  if (t.unattributed_calls) notes.push(`${t.unattributed_calls} call(s) could not be attributed to a trial`);
  if (t.dropped_calls) notes.push(`${t.dropped_calls} call(s) were dropped by the ledger before they were read`);
  if (t.faults.failed > 0)
    notes.push(`${t.faults.failed} fault application(s) failed (first: ${t.faults.first_error})`);
  for (const g of report.gates ?? [])
    notes.push(`${g.passed ? chalk.green('pass') : chalk.red('FAIL')} ${g.task}: ${g.name} (${g.detail})`);
  if (report.error) notes.push(chalk.red(report.error));
  notes.push(`status: ${report.status}`);
  return `${[...out, ...notes].join('\n')}\n`;
}

/** "3/0/2 in 2": the texts that carried a marker into context, an action, the user, and the trials they were in */
function markerCell(m: TrialMarkers | undefined): string {
  if (!m) return 'n/m';
  const text = `${m.entered_context}/${m.drove_action}/${m.reached_user} in ${m.trials}`;
  return m.reached_user > 0 ? chalk.red(text) : text;
}
