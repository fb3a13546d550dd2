/**
 * Under GitHub Actions (`GITHUB_ACTIONS=true`, DESIGN §17): a markdown summary
 * appended to `$GITHUB_STEP_SUMMARY`, and `::error file=…,line=…::` workflow
 * commands at the scenario line of each failed expectation and of the gate, so
 * the pull request shows them on the file. Lines come from the scenario file
 * itself, read again with the YAML loader that validation uses.
 */
import { stoppedByText } from '../../arena/safety/watch.js';
import { appendFileSync, readFileSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import type { ScenarioReport, ScoreReport, SurvivalReport } from '../../arena/report.js';
import { formatNumber, formatP, signed, type RegressionVerdict } from '../../arena/regression/verdict.js';
import { checkScenario } from '../../arena/scenario/validate.js';
import { readYamlDocument } from '../../shared/yaml-source.js';
import { errorMessage } from '../../shared/errors.js';
import type { CliContext } from '../context.js';
import { gateText } from './table.js';

export type GitHubRun = { kind: 'scenario'; report: ScenarioReport } | { kind: 'survival'; report: SurvivalReport };

export function isGitHubActions(env: NodeJS.ProcessEnv): boolean {
  return env.GITHUB_ACTIONS === 'true';
}

export interface Annotation {
  file?: string;
  line?: number;
  title: string;
  message: string;
}

/** the workflow command; data and properties escaped as the runner expects */
export function formatAnnotation(a: Annotation): string {
  const prop = (v: string) => escapeData(v).replace(/:/g, '%3A').replace(/,/g, '%2C');
  const props = [
    ...(a.file !== undefined ? [`file=${prop(a.file)}`] : []),
    ...(a.line !== undefined ? [`line=${a.line}`] : []),
    `title=${prop(a.title)}`,
  ];
  return `::error ${props.join(',')}::${escapeData(a.message)}`;
}

function escapeData(v: string): string {
  return v.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** one annotation per failed expectation (at its action's line) and per failed gate (at expect.min_score when that is its minimum) */
export function scenarioAnnotations(report: ScenarioReport, cwd: string, env: NodeJS.ProcessEnv): Annotation[] {
  const file = report.file === undefined ? undefined : workspacePath(report.file, cwd, env);
  const lines = scenarioLines(report.file === undefined ? undefined : resolve(cwd, report.file));
  const out: Annotation[] = [];
  report.results.forEach((outcome) => {
    if (outcome.met !== false) return;
    const got = outcome.result.success ? 'it succeeded' : `it failed: ${outcome.result.error ?? 'no reason given'}`;
    out.push({
      ...(file !== undefined ? { file } : {}),
      ...optionalLine(lines.action(outcome.label)),
      title: `${report.name}: expectation not met`,
      message: `${outcome.label} (${outcome.result.action.type}) was expected to ${outcome.expectation === 'success' ? 'succeed' : 'fail'}, but ${got}`,
    });
  });
  if (report.gate && !report.gate.passed)
    out.push({
      ...(file !== undefined ? { file } : {}),
      ...optionalLine(lines.gate(report.gate.min_score)),
      title: `${report.name}: gate failed`,
      message: gateText(report.gate),
    });
  if (report.stopped_by)
    out.push({
      ...(file !== undefined ? { file } : {}),
      title: `${report.name}: stop condition tripped`,
      message: stoppedByText(report.stopped_by),
    });
  return out;
}

/** a measured figure, or a dash for one an inconclusive run does not have */
const figure = (value: number | null) => (value === null ? '—' : value.toFixed(1));

/** the markdown appended to the step summary */
export function githubSummary(runs: readonly GitHubRun[]): string {
  const lines = [
    '## Chaos Arena',
    '',
    '| Run | Status | Score | Grade | Availability | Recovery | Consistency | Gate |',
  ];
  lines.push('|---|---|---|---|---|---|---|---|');
  for (const run of runs) {
    const name = run.kind === 'scenario' ? run.report.name : `survival (seed ${run.report.seed})`;
    const s: ScoreReport = run.report.score;
    const gate = run.report.gate ? gateText(run.report.gate) : '—';
    lines.push(
      `| ${cell(name)} | ${statusMark(run.report.status)} | ${figure(s.score)} | ${s.grade ?? '—'} | ${figure(s.availability)} | ${s.recovery.toFixed(1)} | ${s.consistency.toFixed(1)} | ${cell(gate)} |`,
    );
  }
  const failedExpectations = runs.flatMap((run) =>
    run.kind === 'scenario'
      ? run.report.results
          .filter((o) => o.met === false)
          .map(
            (o) =>
              `- **${cell(run.report.name)}** \`${cell(o.label)}\`: expected ${o.expectation}, got ${o.result.success ? 'success' : `failure (${cell(o.result.error ?? 'no reason')})`}`,
          )
      : [],
  );
  if (failedExpectations.length > 0) lines.push('', '### Failed expectations', '', ...failedExpectations);
  const failedChecks = runs.flatMap((run) =>
    run.report.score.measurements.consistency.failed_checks.map(
      (c) =>
        `- **${cell(run.kind === 'scenario' ? run.report.name : 'survival')}** ${cell(c.name)}${c.detail ? `: ${cell(c.detail)}` : ''}`,
    ),
  );
  if (failedChecks.length > 0) lines.push('', '### Failed checks', '', ...failedChecks);
  const stopped = runs.flatMap((run) =>
    run.report.stopped_by
      ? [
          `- **${cell(run.kind === 'scenario' ? run.report.name : 'survival')}** ${cell(stoppedByText(run.report.stopped_by))}`,
        ]
      : [],
  );
  if (stopped.length > 0) lines.push('', '### Stopped early', '', ...stopped);
  return `${lines.join('\n')}\n\n`;
}

/**
 * Appends the summary and prints the annotations (stdout, where the runner reads workflow commands;
 * stderr under --json, whose stdout is one JSON document). A summary that cannot be written is
 * a warning, not a failed run: the run's outcome is the exit code.
 */
export function reportToGitHub(
  ctx: Pick<CliContext, 'stdout' | 'stderr' | 'cwd' | 'env'>,
  runs: readonly GitHubRun[],
  json: boolean,
): void {
  appendSummary(ctx, githubSummary(runs));
  const out = json ? ctx.stderr : ctx.stdout;
  for (const run of runs) {
    const annotations =
      run.kind === 'scenario'
        ? scenarioAnnotations(run.report, ctx.cwd, ctx.env)
        : [
            ...(run.report.gate && !run.report.gate.passed
              ? [{ title: 'survival: gate failed', message: gateText(run.report.gate) }]
              : []),
            ...(run.report.stopped_by
              ? [{ title: 'survival: stop condition tripped', message: stoppedByText(run.report.stopped_by) }]
              : []),
          ];
    for (const a of annotations) out.write(`${formatAnnotation(a)}\n`);
  }
}

/** the regress verdict as a markdown table, and the gate's failure (if any) as an annotation */
export function regressSummary(v: RegressionVerdict, gateFailure: string | undefined): string {
  const name = (arm: 'baseline' | 'candidate') =>
    cell((v.mode === 'strategies' ? v[`${arm}_name`] : v[`${arm}_files`].join(', ')) || arm);
  const lines = [
    '## Chaos Arena: regress',
    '',
    `**${gateFailure === undefined ? '✅' : '❌'} ${cell(v.decision)}**: difference ${signed(v.difference)} (${signed(v.ci[0])} … ${signed(v.ci[1])}), p = ${formatP(v.p_value)} (${v.test} test, alpha ${v.alpha})`,
    '',
    '| Arm | Runs | Mean score | SD |',
    '|---|---|---|---|',
    `| baseline: ${name('baseline')} | ${v.baseline.n} | ${formatNumber(v.baseline.mean)} | ${formatNumber(v.baseline.sd)} |`,
    `| candidate: ${name('candidate')} | ${v.candidate.n} | ${formatNumber(v.candidate.mean)} | ${formatNumber(v.candidate.sd)} |`,
  ];
  if (gateFailure !== undefined) lines.push('', `Gate: ${cell(gateFailure)}`);
  return `${lines.join('\n')}\n\n`;
}

/** appends the regress summary; the gate's failure is also an annotation */
export function reportRegressToGitHub(
  ctx: Pick<CliContext, 'stdout' | 'stderr' | 'env'>,
  verdict: RegressionVerdict,
  gateFailure: string | undefined,
  json: boolean,
): void {
  appendSummary(ctx, regressSummary(verdict, gateFailure));
  if (gateFailure !== undefined)
    (json ? ctx.stderr : ctx.stdout).write(
      `${formatAnnotation({ title: 'regress: gate failed', message: gateFailure })}\n`,
    );
}

function appendSummary(ctx: Pick<CliContext, 'stderr' | 'env'>, markdown: string): void {
  const summaryFile = ctx.env.GITHUB_STEP_SUMMARY;
  if (!summaryFile) return;
  try {
    appendFileSync(summaryFile, markdown);
  } catch (err) {
    ctx.stderr.write(`cannot append the summary to GITHUB_STEP_SUMMARY (${summaryFile}): ${errorMessage(err)}\n`);
  }
}

function statusMark(status: string): string {
  return status === 'passed' ? '✅ passed' : status === 'failed' ? '❌ failed' : `⚠️ ${status}`;
}

/** a table cell: no pipe or line break may end it early */
function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

function optionalLine(line: number | undefined): { line?: number } {
  return line === undefined ? {} : { line };
}

/** the file as GitHub names it: relative to the workspace (the checkout) when it is inside it */
function workspacePath(file: string, cwd: string, env: NodeJS.ProcessEnv): string {
  const abs = resolve(cwd, file);
  const root = env.GITHUB_WORKSPACE ? resolve(env.GITHUB_WORKSPACE) : cwd;
  const rel = relative(root, abs);
  return rel.startsWith('..') || isAbsolute(rel) ? abs : rel.split('\\').join('/');
}

/**
 * 1-based lines in the scenario file: of an action by its label (given or generated, as validation
 * names them, in file order), and of `expect.min_score`. Undefined when the file cannot be read again.
 */
function scenarioLines(path: string | undefined): {
  action(label: string): number | undefined;
  /** the line of `expect.min_score` when the gate's minimum is the file's (not a --min-score) */
  gate(minScore: number): number | undefined;
} {
  let doc: ReturnType<typeof readYamlDocument> | undefined;
  try {
    doc = path === undefined ? undefined : readYamlDocument(readFileSync(path, 'utf8'));
  } catch {
    doc = undefined;
  }
  if (!doc?.ok) return { action: () => undefined, gate: () => undefined };
  const { positionOf } = doc;
  const value = doc.value;
  const steps = checkScenario(doc.value ?? null).scenario?.actions ?? [];
  return {
    action(label) {
      const i = steps.findIndex((s) => s.label === label);
      return i < 0 ? undefined : positionOf(['actions', i])?.line;
    },
    gate: (minScore) => {
      const file = (value as { expect?: { min_score?: unknown } } | null)?.expect?.min_score;
      return file === minScore ? positionOf(['expect', 'min_score'], true)?.line : undefined;
    },
  };
}
