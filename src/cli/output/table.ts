/** The final tables (cli-table3): per-action results, then the score and its dimensions. */
import { stoppedByText, type StoppedBy } from '../../arena/safety/watch.js';
import Table from 'cli-table3';
import chalk from 'chalk';
import type {
  GateOutcome,
  Grade,
  InFlightAtEnd,
  RunStatus,
  ScenarioReport,
  ScoreReport,
  SurvivalReport,
} from '../../arena/report.js';
import { formatDuration } from '../../shared/duration.js';
import { renderFitted } from './fit.js';

const PLAIN_STYLE = { head: [], border: [] };
// no separator line between rows: the tables stay short and fit a 100-column terminal
const COMPACT_CHARS = { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' };

/** `width`: the terminal's columns to fit the tables to; undefined (not a terminal) leaves them as they are */
export function renderScenarioTables(reports: ScenarioReport[], width?: number): string {
  // a run refused before its first scenario (an unknown agent, a bad target) has nothing to sum up: the error says it
  if (reports.length === 0) return '';
  const out: string[] = [];
  for (const r of reports) {
    out.push(chalk.bold(`Scenario ${r.name}`) + chalk.dim(` (seed ${r.seed}, ${formatDuration(r.duration_ms)})`));
    const actions = new Table({
      head: ['action', 'type', 'target', 'result', 'expected', 'check', 'ms'],
      style: PLAIN_STYLE,
      chars: COMPACT_CHARS,
    });
    for (const o of r.results) {
      actions.push([
        o.label,
        o.result.action.type,
        targetText(o.result.action),
        o.result.success ? 'ok' : 'failed',
        o.expectation,
        o.met === null ? '-' : o.met ? chalk.green('met') : chalk.red('NOT MET'),
        String(Math.round(o.result.duration_ms)),
      ]);
    }
    if (r.results.length > 0) out.push(renderFitted(actions, width));
    // reasons go in full under the table: in a cell they made it wider than a 100-column terminal and were cut
    for (const o of r.results)
      if (!o.result.success) out.push(chalk.dim(`  ${o.label} failed: ${o.result.error ?? 'no reason given'}`));
  }
  const summary = new Table({
    head: ['scenario', 'status', 'score', 'avail.', 'recovery', 'consist.', 'MTTR p50/p95', 'expected'],
    style: PLAIN_STYLE,
    chars: COMPACT_CHARS,
  });
  for (const r of reports) {
    summary.push([
      r.name,
      statusText(r.status),
      `${scoreText(r.score.score)} ${gradeText(r.score.grade)}`,
      dim(r.score.availability),
      dim(r.score.recovery),
      dim(r.score.consistency),
      pairText(r.score.measurements.recovery.mttr_p50_ms, r.score.measurements.recovery.mttr_p95_ms),
      // ✗ marks an unmet expectation; an interrupted run is said in its status and footnote, not here
      r.passed + r.failed === 0 ? '-' : `${r.passed}/${r.passed + r.failed} met${r.failed > 0 ? chalk.red(' ✗') : ''}`,
    ]);
  }
  out.push(renderFitted(summary, width));
  for (const r of reports) {
    out.push(...footnotes(r.name, r.score, r.gate, r.error, r.status, r.inconclusive_why, r.stopped_by));
    for (const f of r.cut_faults ?? [])
      out.push(
        chalk.yellow(
          `${r.name}: ${f.kind} on ${f.target} was cut short by the run's end: ${formatDuration(f.planned_ms)} planned, ${f.actual_ms === undefined ? 'unknown' : formatDuration(f.actual_ms)} ran`,
        ),
      );
  }
  return `${out.join('\n')}\n`;
}

export function renderSurvivalTable(r: SurvivalReport, width?: number): string {
  const out: string[] = [];
  const counts = new Map<string, { ok: number; failed: number }>();
  for (const t of r.timeline) {
    const c = counts.get(t.action.type) ?? { ok: 0, failed: 0 };
    if (t.result.success) c.ok++;
    else c.failed++;
    counts.set(t.action.type, c);
  }
  const actions = new Table({ head: ['action', 'applied', 'not applied'], style: PLAIN_STYLE, chars: COMPACT_CHARS });
  for (const [type, c] of [...counts].sort(([a], [b]) => a.localeCompare(b)))
    actions.push([type, String(c.ok), String(c.failed)]);
  // the totals live here rather than in the summary, which they widened past 100 columns
  if (counts.size > 1) actions.push([chalk.bold('total'), String(r.actions_succeeded), String(r.actions_failed)]);
  // elapsed includes warmup and cooldown, so it is shown beside the chaos window, not as a fraction of it
  out.push(
    chalk.bold(
      `Survival (seed ${r.seed}, chaos ${formatDuration(r.duration_ms)} every ${formatDuration(r.interval_ms)}, ran ${formatDuration(r.elapsed_ms)})`,
    ),
  );
  if (counts.size > 0) out.push(renderFitted(actions, width));
  const summary = new Table({
    head: ['status', 'actions', 'score', 'avail.', 'recovery', 'consist.', 'MTTR p50/p95', 'drift p50/p99'],
    style: PLAIN_STYLE,
    chars: COMPACT_CHARS,
  });
  summary.push([
    statusText(r.status),
    String(r.actions_run),
    `${scoreText(r.score.score)} ${gradeText(r.score.grade)}`,
    dim(r.score.availability),
    dim(r.score.recovery),
    dim(r.score.consistency),
    pairText(r.score.measurements.recovery.mttr_p50_ms, r.score.measurements.recovery.mttr_p95_ms),
    pairText(r.drift.p50_ms, r.drift.p99_ms),
  ]);
  out.push(renderFitted(summary, width));
  out.push(...footnotes('survival', r.score, r.gate, r.error, r.status, r.inconclusive_why, r.stopped_by));
  return `${out.join('\n')}\n`;
}

function footnotes(
  name: string,
  score: ScoreReport,
  gate: GateOutcome | undefined,
  error: string | undefined,
  status: RunStatus,
  inconclusiveWhy: string | undefined,
  stoppedBy: StoppedBy | undefined,
): string[] {
  const lines: string[] = [];
  if (stoppedBy) lines.push(chalk.red(`${name}: ${stoppedByText(stoppedBy)}`));
  if (status === 'inconclusive')
    lines.push(chalk.yellow(`${name}: inconclusive: ${inconclusiveWhy ?? 'nothing measured'}`));
  const pending = score.measurements.requests.in_flight_at_end;
  if (pending && pending.count > 0) lines.push(chalk.dim(`${name}: ${inFlightText(pending)}`));
  const failed = score.measurements.consistency.failed_checks;
  if (failed.length > 0)
    lines.push(
      `${name}: failed checks: ${failed.map((c) => (c.detail ? `${c.name} (${c.detail})` : c.name)).join('; ')}`,
    );
  const interval = score.interval;
  if (interval && score.score !== null) {
    lines.push(
      chalk.dim(
        `${name}: 95% interval: score ${interval.score.low.toFixed(1)}–${interval.score.high.toFixed(1)}, availability ${interval.availability.low.toFixed(1)}–${interval.availability.high.toFixed(1)}`,
      ),
    );
  }
  const partial = status === 'interrupted' || status === 'error';
  if (gate && partial) {
    // a partial run's score covers only what ran: saying it "meets the minimum" would be a verdict it cannot give
    lines.push(
      chalk.yellow(
        `${name}: the run did not finish, so the score ${gate.score} covers only part of it; the minimum ${gate.min_score} was not judged`,
      ),
    );
  } else if (gate) {
    lines.push(gate.passed ? chalk.green(`${name}: ${gateText(gate)}`) : chalk.red(`${name}: ${gateText(gate)}`));
  }
  if (error) lines.push(chalk.yellow(`${name}: ${error}`));
  return lines;
}

/** "score 91.5 meets the minimum 80", or with --gate lower "score 91.5 (95% lower bound 84.2) is 0.8 below the minimum 85" */
export function gateText(gate: GateOutcome): string {
  const value = gate.on === 'lower' ? (gate.value ?? gate.score) : gate.score;
  const what = gate.on === 'lower' ? `score ${gate.score} (95% lower bound ${value})` : `score ${gate.score}`;
  return gate.passed
    ? `${what} meets the minimum ${gate.min_score}`
    : `${what} is ${round1(gate.min_score - value)} below the minimum ${gate.min_score}`;
}

/** "3 request(s) still in flight when the window closed: 1 succeeded, 2 failed (1 never ended, counted failed)" */
export function inFlightText(p: InFlightAtEnd): string {
  const never = p.unfinished > 0 ? ` (${p.unfinished} never ended, counted failed)` : '';
  return `${p.count} request(s) still in flight when the window closed: ${p.succeeded} succeeded, ${p.failed} failed${never}`;
}

export function gradeText(grade: Grade | null): string {
  if (grade === null) return '';
  if (grade === 'A+' || grade === 'A') return chalk.green(grade);
  if (grade === 'B' || grade === 'C') return chalk.yellow(grade);
  return chalk.red(grade);
}

function statusText(status: string): string {
  return status === 'passed' ? chalk.green(status) : status === 'failed' ? chalk.red(status) : chalk.yellow(status);
}

/** no score (nothing measured) shows as "-", never as 0 */
function scoreText(n: number | null): string {
  return n === null ? chalk.yellow('-') : chalk.bold(n.toFixed(1));
}

function dim(n: number | null): string {
  return n === null ? '-' : n.toFixed(1);
}

function msText(ms: number | null | undefined): string {
  return ms === null || ms === undefined ? '-' : formatDuration(ms);
}

function pairText(a: number | null | undefined, b: number | null | undefined): string {
  return a == null && b == null ? '-' : `${msText(a)}/${msText(b)}`;
}

function targetText(action: { target_id: string; source_id?: string }): string {
  if (action.source_id) return `${action.source_id}→${action.target_id}`;
  return action.target_id || '-';
}

function round1(n: number): number {
  return Math.round(n * 10) / 10;
}
