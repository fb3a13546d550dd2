/**
 * The JUnit XML writer for CI, the only one: one <testsuite> per scenario or survival run, one
 * <testcase> per action (its expectation) and one for the score gate; a regression verdict is one
 * suite with one case. Failures carry their message; an interrupted or crashed run is an <error>
 * on the gate testcase.
 */
import {
  isCutShort,
  type ActionOutcome,
  type ScenarioReport,
  type SurvivalReport,
  type SurvivalTick,
  type GateOutcome,
  type ScoreReport,
  type RunStatus,
} from '../../arena/report.js';
import { gateFailure, verdictSummary, type RegressionVerdict } from '../../arena/regression/verdict.js';
import type { TrialsReport } from '../../arena/trials/report.js';
import { attrs, escapeXml } from './xml.js';
import { gateText } from './table.js';
import { stoppedByText } from '../../arena/safety/watch.js';
import type { StoppedBy } from '../../arena/safety/types.js';

interface Case {
  name: string;
  classname: string;
  timeMs: number;
  failure?: { message: string; type: string; body?: string };
  error?: { message: string; type: string };
  skipped?: string;
  out?: string;
}

interface Suite {
  name: string;
  /** when the run started (a verdict on recorded scores has none) */
  timestamp?: string;
  timeMs: number;
  properties: Record<string, string | number>;
  cases: Case[];
}

export function scenarioJUnit(reports: ScenarioReport[]): string {
  return renderSuites(reports.map(scenarioSuite));
}

export function survivalJUnit(report: SurvivalReport): string {
  return renderSuites([survivalSuite(report)]);
}

/** one case, failed when the verdict fails the gate (the same rule as the exit code) */
export function regressionJUnit(v: RegressionVerdict, failOnNoImprovement: boolean): string {
  const failure = gateFailure(v, failOnNoImprovement);
  const timeMs = v.mode === 'strategies' ? v.duration_ms : 0;
  const c: Case = { classname: 'regress', name: 'candidate vs baseline', timeMs, out: verdictSummary(v) };
  if (failure) c.failure = { type: 'regression', message: failure };
  return renderSuites([
    {
      name: 'regress',
      timeMs,
      properties: { decision: v.decision, p_value: v.p_value, difference: v.difference, test: v.test },
      cases: [c],
    },
  ]);
}

function scenarioSuite(r: ScenarioReport): Suite {
  const cases: Case[] = r.results.map((o) => actionCase(r.name, o));
  cases.push(...invariantCases(r.name, r.score));
  cases.push(...stopCases(r.name, r.stopped_by));
  cases.push(gateCase(r.name, r.score, r.gate, r.status, r.error, r.duration_ms, r.inconclusive_why));
  return {
    name: `scenario: ${r.name}`,
    timestamp: r.started_at,
    timeMs: r.duration_ms,
    properties: {
      kind: 'scenario',
      seed: r.seed,
      ...scoreProperties(r.score),
      ...(r.file ? { file: r.file } : {}),
    },
    cases,
  };
}

function survivalSuite(r: SurvivalReport): Suite {
  const name = `survival (seed ${r.seed})`;
  const cases: Case[] = r.timeline.map((t) => tickCase(name, t));
  cases.push(...invariantCases(name, r.score));
  cases.push(...stopCases(name, r.stopped_by));
  cases.push(gateCase(name, r.score, r.gate, r.status, r.error, r.elapsed_ms, r.inconclusive_why));
  return {
    name: `survival: seed ${r.seed}`,
    timestamp: r.started_at,
    timeMs: r.elapsed_ms,
    properties: {
      kind: 'survival',
      seed: r.seed,
      ...scoreProperties(r.score),
      drift_p50_ms: r.drift.p50_ms,
      drift_p99_ms: r.drift.p99_ms,
    },
    cases,
  };
}

function actionCase(classname: string, o: ActionOutcome): Case {
  const target = o.result.action.target_id ? ` ${o.result.action.target_id}` : '';
  const expect = o.expectation === 'none' ? 'no expectation' : `expect ${o.expectation}`;
  const c: Case = {
    classname,
    name: `${o.label}: ${o.result.action.type}${target} (${expect})`,
    timeMs: o.result.duration_ms,
  };
  if (o.met === false) {
    const got = o.result.success ? 'succeeded' : `failed: ${o.result.error ?? 'unknown error'}`;
    c.failure = { type: 'expectation', message: `expected ${o.expectation}, the action ${got}` };
  } else if (!o.result.success) {
    c.out = `action failed: ${o.result.error ?? 'unknown error'}`;
  }
  return c;
}

function tickCase(classname: string, t: SurvivalTick): Case {
  const target = t.action.target_id ? ` ${t.action.target_id}` : '';
  const c: Case = { classname, name: `#${t.index} ${t.action.type}${target}`, timeMs: t.result.duration_ms };
  c.out = `planned at ${t.planned_at}ms, ran at ${t.at}ms (drift ${t.drift_ms}ms)`;
  // a random survival action may legitimately not apply (the target is already down): report it, do not fail on it
  if (!t.result.success) c.skipped = `not applied: ${t.result.error ?? 'unknown error'}`;
  return c;
}

/** no score (nothing measured) is no property: a 0 there would read as a grade */
function scoreProperties(score: ScoreReport): Record<string, string | number> {
  return score.score === null || score.grade === null ? {} : { score: score.score, grade: score.grade };
}

/** one case per invariant that fails the run (those with `gate: false` count only in the score) */
function invariantCases(classname: string, score: ScoreReport): Case[] {
  return score.measurements.consistency.failed_checks
    .filter((c) => c.gate !== false)
    .map((c) => ({
      classname,
      name: `invariant ${c.name}`,
      timeMs: 0,
      failure: { type: 'invariant', message: `invariant ${c.name} failed${c.detail ? `: ${c.detail}` : ''}` },
    }));
}

/** a tripped stop condition is a failure of its own, named after the condition */
function stopCases(classname: string, stoppedBy: StoppedBy | undefined): Case[] {
  if (!stoppedBy) return [];
  return [
    {
      classname,
      name: `stop condition ${stoppedBy.condition}`,
      timeMs: stoppedBy.at_ms,
      failure: { type: 'stop_condition', message: stoppedByText(stoppedBy) },
    },
  ];
}

function gateCase(
  classname: string,
  score: ScoreReport,
  gate: GateOutcome | undefined,
  status: RunStatus,
  error: string | undefined,
  timeMs: number,
  inconclusiveWhy: string | undefined,
): Case {
  const summary =
    score.score === null
      ? `no score: ${score.availability_why ?? 'nothing measured'}; recovery ${score.recovery}, consistency ${score.consistency}`
      : `score ${score.score} (${score.grade}): availability ${score.availability}, recovery ${score.recovery}, consistency ${score.consistency}`;
  const c: Case = {
    classname,
    name: gate
      ? `${gate.on === 'lower' ? '95% lower bound of score' : 'score'} >= ${gate.min_score}`
      : 'score (no gate)',
    timeMs,
    out: summary,
  };
  if (isCutShort(status) || status === 'error') {
    c.error = { type: status, message: error ?? status };
  } else if (status === 'inconclusive') {
    c.failure = { type: 'inconclusive', message: `inconclusive: ${inconclusiveWhy ?? 'nothing measured'}` };
  } else if (gate && !gate.passed) {
    c.failure = { type: 'gate', message: gateText(gate) };
  }
  return c;
}

/** one suite, one case per task: failed when one of its gates failed; an interrupted or crashed run is an <error> on each */
export function trialsJUnit(report: TrialsReport): string {
  const t = report.trials;
  const cases = t.tasks.map((task): Case => {
    const gates = (report.gates ?? []).filter((g) => g.task === task.id);
    const arm = task.faulted ?? task.clean;
    const c: Case = {
      classname: 'trials',
      name: task.id,
      timeMs: 0,
      out: `${arm.successes}/${arm.n} passed ${task.faulted ? 'under faults' : 'clean'}; ${gates.map((g) => `${g.name}: ${g.detail}`).join('; ')}`,
    };
    const failed = gates.filter((g) => !g.passed);
    if (failed.length > 0)
      c.failure = { type: 'gate', message: failed.map((g) => `${g.name}: ${g.detail}`).join('; ') };
    if (
      report.status === 'error' ||
      report.status === 'interrupted' ||
      report.status === 'stopped' ||
      report.status === 'inconclusive'
    )
      c.error = { type: report.status, message: report.error ?? report.status };
    return c;
  });
  cases.push(...stopCases('trials', report.stopped_by));
  return renderSuites([
    {
      name: `trials${t.scenario ? ` ${t.scenario}` : ''}`,
      timeMs: t.duration_ms,
      properties: { seed: t.seed, trials: t.n, k: t.k.join(',') },
      cases,
    },
  ]);
}

function renderSuites(suites: Suite[]): string {
  const count = (pick: (c: Case) => unknown) => suites.reduce((n, s) => n + s.cases.filter(pick).length, 0);
  const total = suites.reduce((n, s) => n + s.cases.length, 0);
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites${attrs({ name: 'chaos-arena', tests: total, failures: count((c) => c.failure), errors: count((c) => c.error), skipped: count((c) => c.skipped), time: seconds(suites.reduce((n, s) => n + s.timeMs, 0)) })}>`,
  ];
  for (const s of suites) {
    lines.push(
      `  <testsuite${attrs({
        name: s.name,
        tests: s.cases.length,
        failures: s.cases.filter((c) => c.failure).length,
        errors: s.cases.filter((c) => c.error).length,
        skipped: s.cases.filter((c) => c.skipped).length,
        time: seconds(s.timeMs),
        timestamp: s.timestamp,
      })}>`,
    );
    lines.push('    <properties>');
    for (const [name, value] of Object.entries(s.properties)) lines.push(`      <property${attrs({ name, value })}/>`);
    lines.push('    </properties>');
    for (const c of s.cases) lines.push(...renderCase(c));
    lines.push('  </testsuite>');
  }
  lines.push('</testsuites>');
  return `${lines.join('\n')}\n`;
}

function renderCase(c: Case): string[] {
  const open = `    <testcase${attrs({ classname: c.classname, name: c.name, time: seconds(c.timeMs) })}`;
  const inner: string[] = [];
  if (c.failure)
    inner.push(
      `      <failure${attrs({ message: c.failure.message, type: c.failure.type })}>${escapeXml(c.failure.body ?? c.failure.message)}</failure>`,
    );
  if (c.error)
    inner.push(
      `      <error${attrs({ message: c.error.message, type: c.error.type })}>${escapeXml(c.error.message)}</error>`,
    );
  if (c.skipped) inner.push(`      <skipped${attrs({ message: c.skipped })}/>`);
  if (c.out) inner.push(`      <system-out>${escapeXml(c.out)}</system-out>`);
  return inner.length === 0 ? [`${open}/>`] : [`${open}>`, ...inner, '    </testcase>'];
}

function seconds(ms: number): string {
  return (Math.max(0, ms) / 1000).toFixed(3);
}
