/**
 * What `arena regress` does once its options are parsed (loaded lazily by the
 * command, so other commands never pay for the statistics and the tables): runs
 * both arms on the same seeds, or reads recorded scores, and prints the verdict.
 */
import Table from 'cli-table3';
import chalk from 'chalk';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { CliContext } from '../context.js';
import { applyColor, resolveOutputMode } from '../output/mode.js';
import { attrs, escapeXml } from '../output/xml.js';
import { withNonFiniteExplained } from '../output/json.js';
import { CancelledError, GateFailedError, UsageError, errorMessage } from '../../shared/errors.js';
import { durationProblem, tryParseDuration } from '../../shared/duration.js';
import { randomSeed } from '../../shared/random.js';
import { analyzeScores, type RegressionAnalysis } from '../../arena/regression/analysis.js';
import { readScoresFile } from '../../arena/regression/score-files.js';
import type { RegressionResult } from '../../arena/regression/tester.js';
import type { Scorer } from '../../arena/regression/scorer.js';
import type { RegressionArena, RegressionEvent, RegressionWorkload } from '../../arena/regression/types.js';

export interface RegressOptions {
  baseline?: string;
  candidate?: string;
  baselineTarget?: string;
  candidateTarget?: string;
  baselineScores?: string[];
  candidateScores?: string[];
  paired?: boolean;
  scenario?: string;
  survival?: string;
  interval?: string;
  actions?: string;
  recoveryDeadline?: string;
  cooldown?: string;
  runs?: string;
  adaptive?: boolean;
  minRuns?: string;
  batch?: string;
  maxRuns?: string;
  spending?: string;
  futility?: string;
  alpha?: string;
  parallel?: string;
  seed?: string;
  minEffect?: string;
  weights?: string;
  json?: boolean;
  junit?: string;
  failOnNoImprovement?: boolean;
  color?: boolean;
  workers?: string;
}

/** what --json prints and what the table shows: a run result, or an analysis of recorded scores */
type Verdict = (RegressionResult & { mode: 'strategies' }) | (RegressionAnalysis & { mode: 'scores'; baseline_files: string[]; candidate_files: string[] });

export async function runRegress(options: RegressOptions, ctx: CliContext): Promise<void> {
  const mode = resolveOutputMode({ json: options.json, color: options.color, tui: false }, ctx);
  applyColor(mode);
  const alpha = parseNumber(options.alpha, '--alpha', 0.05, (v) => v > 0 && v < 0.5, 'a number between 0 and 0.5');
  const minimumEffect = parseNumber(options.minEffect, '--min-effect', 5, (v) => v > 0, 'a positive number of score points');
  let verdict: Verdict;
  try {
    verdict = options.baselineScores || options.candidateScores
      ? await compareRecorded(options, alpha, minimumEffect, ctx.cwd)
      : await compareStrategies(options, ctx, alpha, minimumEffect);
  } catch (err) {
    // Ctrl-C: show what the finished pairs say, clearly marked as no verdict, then exit 130
    const partial = err instanceof CancelledError ? (err.details as { partial?: RegressionResult } | undefined)?.partial : undefined;
    if (partial) {
      const doc: Verdict = { mode: 'strategies', ...partial };
      ctx.stdout.write(mode.kind === 'json' ? `${JSON.stringify(withNonFiniteExplained({ schema_version: 1, regression: doc }), null, 2)}\n` : renderTable(doc));
    }
    throw err;
  }

  const problems: string[] = [];
  if (options.junit) writeOutput(ctx, options.junit, renderJUnit(verdict, options), problems);
  ctx.stdout.write(mode.kind === 'json' ? `${JSON.stringify(withNonFiniteExplained({ schema_version: 1, regression: verdict }), null, 2)}\n` : renderTable(verdict));
  if (problems.length > 0) throw new UsageError(problems.join('; '), 'output_not_writable');
  const gate = gateFailure(verdict, options.failOnNoImprovement === true);
  if (gate) throw new GateFailedError(gate, 'regression');
}

async function compareRecorded(options: RegressOptions, alpha: number, minimumEffect: number, cwd: string): Promise<Verdict> {
  if (options.baseline || options.candidate) {
    throw new UsageError('give either --baseline/--candidate (strategies to run) or --baseline-scores/--candidate-scores (recorded scores), not both');
  }
  if (!options.baselineScores || !options.candidateScores) {
    throw new UsageError('--baseline-scores and --candidate-scores go together: give both');
  }
  for (const flag of ['scenario', 'survival', 'adaptive', 'runs', 'parallel', 'weights', 'workers'] as const) {
    if (options[flag] !== undefined) throw new UsageError(`--${flag} runs strategies; it does not apply to recorded scores`);
  }
  const baseline = (await Promise.all(options.baselineScores.map((f) => readScoresFile(resolve(cwd, f), 'baseline scores', f)))).flat();
  const candidate = (await Promise.all(options.candidateScores.map((f) => readScoresFile(resolve(cwd, f), 'candidate scores', f)))).flat();
  for (const [name, scores] of [['baseline', baseline], ['candidate', candidate]] as const) {
    if (scores.length < 2) throw new UsageError(`${name} scores: need at least 2 scores to compare, got ${scores.length}`, 'invalid_scores');
  }
  if (options.paired && baseline.length !== candidate.length) {
    throw new UsageError(`--paired needs as many baseline as candidate scores (${baseline.length} vs ${candidate.length})`, 'invalid_scores');
  }
  const analysis = analyzeScores(baseline, candidate, { alpha, paired: options.paired === true, minimumEffect });
  return { mode: 'scores', baseline_files: options.baselineScores, candidate_files: options.candidateScores, ...analysis };
}

async function compareStrategies(options: RegressOptions, ctx: CliContext, alpha: number, minimumEffect: number): Promise<Verdict> {
  const byTarget = options.baselineTarget !== undefined || options.candidateTarget !== undefined;
  if (byTarget && (options.baseline || options.candidate)) throw new UsageError('give strategies (--baseline/--candidate) or target files (--baseline-target/--candidate-target), not both');
  if (byTarget && (!options.baselineTarget || !options.candidateTarget)) throw new UsageError('--baseline-target and --candidate-target go together: give both');
  if (byTarget && options.workers !== undefined) throw new UsageError('--workers runs strategies on the embedded runtime; compare target files on this machine (without --workers)');
  if (!byTarget && (!options.baseline || !options.candidate)) {
    throw new UsageError('give --baseline and --candidate strategy files, --baseline-target and --candidate-target files (or --baseline-scores and --candidate-scores)');
  }
  if (options.scenario && options.survival) throw new UsageError('give --scenario or --survival, not both');
  if (options.scenario) {
    for (const [flag, value] of [['--interval', options.interval], ['--actions', options.actions], ['--recovery-deadline', options.recoveryDeadline], ['--cooldown', options.cooldown]] as const) {
      if (value !== undefined) throw new UsageError(`${flag} is a survival setting; the scenario file sets its own`);
    }
  }
  if (options.paired) throw new UsageError('--paired is for recorded scores; strategy runs are always paired by seed');
  if (!options.adaptive) {
    for (const [flag, value] of [['--min-runs', options.minRuns], ['--batch', options.batch], ['--max-runs', options.maxRuns], ['--spending', options.spending], ['--futility', options.futility]] as const) {
      if (value !== undefined) throw new UsageError(`${flag} sets adaptive stopping: add --adaptive (or use --runs for a fixed number)`);
    }
  } else if (options.runs !== undefined) {
    throw new UsageError('--runs fixes the number of runs; with --adaptive use --min-runs, --batch and --max-runs');
  }
  const runs = parseInteger(options.runs, '--runs', 10, 2);
  const minRuns = parseInteger(options.minRuns, '--min-runs', 5, 2);
  const batch = parseInteger(options.batch, '--batch', 5, 1);
  const maxRuns = parseInteger(options.maxRuns, '--max-runs', Math.max(30, minRuns), 2);
  if (maxRuns < minRuns) throw new UsageError(`--max-runs (${maxRuns}) must be at least --min-runs (${minRuns})`);
  const spending = options.spending ?? 'obrien-fleming';
  if (spending !== 'obrien-fleming' && spending !== 'pocock') throw new UsageError(`--spending: expected obrien-fleming or pocock, got ${JSON.stringify(options.spending)}`);
  const futilityPower = parseNumber(options.futility, '--futility', 0, (v) => v >= 0 && v < 1, 'a conditional power in [0, 1)');
  // two real systems on one machine: one run at a time unless told otherwise;
  // with workers, every run of a look goes on the queue at once: the workers are the limit
  const parallelism = parseInteger(options.parallel, '--parallel', byTarget ? 1 : options.workers ? 10_000 : 4, 1);
  const seed = options.seed === undefined ? randomSeed() : parseInteger(options.seed, '--seed', 0, 0);
  const scorer = options.weights === undefined ? undefined : await parseWeights(options.weights);

  const baselineName = (options.baselineTarget ?? options.baseline)!;
  const candidateName = (options.candidateTarget ?? options.candidate)!;
  let baseline: unknown;
  let candidate: unknown;
  let arena: RegressionArena;
  if (byTarget) {
    const { loadTargetFile } = await import('../../targets/file.js');
    const [b, c] = await Promise.all([loadTargetFile(resolve(ctx.cwd, baselineName), baselineName), loadTargetFile(resolve(ctx.cwd, candidateName), candidateName)]);
    // the arms differ by system, not by strategy: each run builds a fresh target from its arm's file
    baseline = { target: baselineName };
    candidate = { target: candidateName };
    const { createTargetArena } = await import('../../arena/regression/target-arena.js');
    arena = createTargetArena({ createTarget: (request) => (request.arm === 'baseline' ? b : c).create({ seed: request.seed, env: ctx.env }) });
  } else {
    const { loadStrategyFile } = await import('../../runtime/strategy.js');
    [baseline, candidate] = await Promise.all([loadStrategyFile(resolve(ctx.cwd, baselineName)), loadStrategyFile(resolve(ctx.cwd, candidateName))]);
    arena = await createRegressionArena();
  }
  const workload = await resolveWorkload(options, ctx);
  const { RegressionTester } = await import('../../arena/regression/tester.js');
  ctx.stderr.write(`regress: ${candidateName} vs ${baselineName}, ${options.adaptive ? `adaptive, ${minRuns}..${maxRuns}` : runs} runs per arm, seed ${seed}\n`);
  const queue = options.workers === undefined ? undefined : await openWorkerQueue(options.workers, seed);
  if (queue) ctx.stderr.write(`regress: runs go on the queue in ${queue.location} for arena worker processes\n`);
  // the web console of any `arena serve` on that database shows this progress (src/events/regress-progress.ts)
  queue?.progress.started({ baseline: baselineName, candidate: candidateName, seed, adaptive: options.adaptive === true, max_runs: options.adaptive ? maxRuns : runs, ...(options.adaptive ? { min_runs: minRuns } : {}), alpha });
  const result = await new RegressionTester(queue?.arena ?? arena, scorer).run({
    baseline,
    candidate,
    baselineName,
    candidateName,
    runs,
    alpha,
    adaptive: options.adaptive === true,
    minAdaptiveRuns: minRuns,
    adaptiveBatchSize: batch,
    maxRuns,
    spending,
    futilityPower,
    parallelism,
    workload,
    seed,
    minimumEffect,
    signal: ctx.signal,
    onEvent: (event) => {
      ctx.stderr.write(progressLine(event));
      queue?.progress.event(event);
    },
  })
    .then(
      (r) => {
        queue?.progress.finished({ ...r, ...(r.sequential ? { stopped: r.sequential.stopped } : {}) });
        return r;
      },
      (err: unknown) => {
        queue?.progress.failed(err);
        throw err;
      },
    )
    .finally(() => queue?.close());
  return { mode: 'strategies', ...result };
}

async function resolveWorkload(options: RegressOptions, ctx: CliContext): Promise<RegressionWorkload> {
  if (options.scenario) {
    const { loadScenarioFile } = await import('../../arena/scenario/load.js');
    return { scenario: await loadScenarioFile(resolve(ctx.cwd, options.scenario)), file: options.scenario };
  }
  const duration = parseDurationFlag(options.survival, '--survival', 3000);
  const interval = parseDurationFlag(options.interval, '--interval', 500);
  if (duration <= 0 || interval <= 0) throw new UsageError('--survival and --interval must be longer than 0');
  const actions = options.actions?.split(',').map((a) => a.trim()).filter(Boolean);
  const deadline = options.recoveryDeadline === undefined ? undefined : parseDurationFlag(options.recoveryDeadline, '--recovery-deadline', 0);
  if (deadline !== undefined && deadline <= 0) throw new UsageError('--recovery-deadline must be longer than 0');
  const cooldown = options.cooldown === undefined ? undefined : parseDurationFlag(options.cooldown, '--cooldown', 0);
  return {
    survival: {
      duration_ms: duration,
      interval_ms: interval,
      ...(actions && actions.length > 0 ? { actions } : {}),
      ...(deadline !== undefined ? { recovery_deadline_ms: deadline } : {}),
      ...(cooldown !== undefined ? { cooldown_ms: cooldown } : {}),
    },
  };
}

/** The real arena: every run on a fresh embedded target (lazy-loaded: the runtime is heavy). */
async function createRegressionArena(): Promise<RegressionArena> {
  const [{ createTargetArena }, { embeddedTargetFactory }] = await Promise.all([
    import('../../arena/regression/target-arena.js'),
    import('../../targets/embedded/index.js'),
  ]);
  return createTargetArena({ targetFactory: embeddedTargetFactory });
}

/** `--workers postgres://…`: the runs of this invocation on the queue there (src/events/run-queue.ts) */
async function openWorkerQueue(url: string, seed: number) {
  const { storeKind } = await import('../../events/store-spec.js');
  if (storeKind(url) !== 'postgres') throw new UsageError(`--workers takes a postgres:// URL (the database arena worker processes take runs from), got ${JSON.stringify(url)}`);
  const [{ openQueueArena }, { randomUUID }] = await Promise.all([import('../../events/run-queue.js'), import('node:crypto')]);
  return openQueueArena(url, `regress-${seed}-${randomUUID().slice(0, 8)}`);
}

/** `availability=2,recovery=1` → an EnsembleScorer over the score dimensions (and `score`, the resilience score) */
async function parseWeights(text: string): Promise<Scorer> {
  const { EnsembleScorer, dimensionScorer, resilienceScorer } = await import('../../arena/regression/scorer.js');
  const known: Record<string, Scorer> = {
    score: resilienceScorer,
    availability: dimensionScorer('availability'),
    recovery: dimensionScorer('recovery'),
    consistency: dimensionScorer('consistency'),
  };
  const members = text.split(',').map((part) => {
    const match = /^\s*([a-z_]+)\s*=\s*(\S+)\s*$/.exec(part);
    if (!match) throw new UsageError(`--weights: expected name=weight pairs such as availability=2,recovery=1, got ${JSON.stringify(part)}`);
    const scorer = known[match[1]!];
    if (!scorer) throw new UsageError(`--weights: unknown scorer "${match[1]}" (known: ${Object.keys(known).join(', ')})`);
    return { scorer, weight: Number(match[2]) };
  });
  try {
    return new EnsembleScorer(members);
  } catch (err) {
    throw new UsageError(`--weights: ${errorMessage(err)}`);
  }
}

function progressLine(event: RegressionEvent): string {
  if (event.type === 'run') return `  ${event.arm.padEnd(9)} run ${String(event.run + 1).padStart(3)} (seed ${event.seed}): ${event.score.toFixed(1)}\n`;
  const l = event.look;
  return `  look ${l.index + 1} at ${l.n} runs per arm: p = ${formatP(l.p_value)}, boundary p ≤ ${formatP(l.nominal_p)} → ${l.decision}\n`;
}

function gateFailure(v: Verdict, failOnNoImprovement: boolean): string | undefined {
  const summary = `difference ${signed(v.difference)}, p = ${formatP(v.p_value)}`;
  if (v.decision === 'candidate worse') return `regression: the candidate is significantly worse than the baseline (${summary})`;
  if (failOnNoImprovement && v.decision === 'cannot decide') return `no improvement shown: the test cannot decide (${v.undecided_reason ?? 'no variation'})`;
  if (failOnNoImprovement && v.decision !== 'candidate better') {
    return `no improvement: the candidate is not significantly better than the baseline (${summary})`;
  }
  return undefined;
}

const PLAIN_STYLE = { head: [], border: [] };

function renderTable(v: Verdict): string {
  const out: string[] = [];
  const names = v.mode === 'strategies'
    ? { baseline: v.baseline_name ?? 'baseline', candidate: v.candidate_name ?? 'candidate' }
    : { baseline: v.baseline_files.join(', '), candidate: v.candidate_files.join(', ') };
  if (v.mode === 'strategies' && v.interrupted) out.push(chalk.red(`INTERRUPTED after ${v.runs_used} complete pairs: partial figures, not a verdict`));
  out.push(chalk.bold('Regression test') + chalk.dim(v.mode === 'strategies' ? ` (runs paired by seed, seed ${v.seed}, scorer ${v.scorer})` : ' (recorded scores)'));
  const arms = new Table({ head: ['arm', 'source', 'n', 'mean', 'sd'], style: PLAIN_STYLE });
  arms.push(['baseline', names.baseline, String(v.baseline.n), v.baseline.mean.toFixed(2), v.baseline.sd.toFixed(2)]);
  arms.push(['candidate', names.candidate, String(v.candidate.n), v.candidate.mean.toFixed(2), v.candidate.sd.toFixed(2)]);
  out.push(arms.toString());

  // long reasons wrap inside the cell instead of widening the table past the terminal
  const stats = new Table({ style: PLAIN_STYLE, wordWrap: true, colWidths: [null, 80] as never });
  const level = `${formatLevel(v.ci_level)}% CI`;
  const interval = v.ci.every(Number.isFinite) ? `, ${level} ${signed(v.ci[0])} … ${signed(v.ci[1])}` : ', no interval (no variation)';
  stats.push({ difference: `${signed(v.difference)} (candidate − baseline)${interval}` });
  const testName = v.test === 'paired' ? 'paired t-test on per-seed differences' : "Welch's t-test";
  stats.push({ test: `${testName}: t = ${formatNumber(v.t)}, df = ${formatNumber(v.df)}` });
  const thresholdNote = v.threshold !== v.alpha ? ` (boundary of the deciding look: p ≤ ${formatP(v.threshold)}; alpha ${v.alpha} overall)` : ` (alpha ${v.alpha})`;
  stats.push({ 'p-value': `${formatP(v.p_value)}${thresholdNote}` });
  if (v.test === 'paired') stats.push({ "Welch's t-test": `t = ${formatNumber(v.welch.t)}, df = ${formatNumber(v.welch.df)}, p = ${formatP(v.welch.p)}` });
  const es = v.effect_size;
  stats.push({ 'effect size': `Hedges' g = ${formatNumber(es.hedges_g)} (${es.magnitude}), Cohen's d = ${formatNumber(es.cohens_d)}${es.paired_dz !== undefined ? `, d_z = ${formatNumber(es.paired_dz)}` : ''}` });
  const mw = v.mann_whitney;
  stats.push({ 'Mann–Whitney U': `U = ${mw.u}, p = ${formatP(mw.p)} (${mw.method}${mw.ties ? ', ties' : ''}), P(candidate > baseline) = ${mw.common_language.toFixed(2)}` });
  stats.push({ decision: v.undecided_reason ? `${decisionText(v.decision)}: ${v.undecided_reason}` : decisionText(v.decision) });
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
  out.push(stats.toString());
  return `${out.join('\n')}\n`;
}

function renderJUnit(v: Verdict, options: RegressOptions): string {
  const failure = gateFailure(v, options.failOnNoImprovement === true);
  const name = 'candidate vs baseline';
  const seconds = v.mode === 'strategies' ? (v.duration_ms / 1000).toFixed(3) : '0.000';
  const summary = `decision: ${v.decision}; difference ${signed(v.difference)} (${signed(v.ci[0])} … ${signed(v.ci[1])}), p = ${formatP(v.p_value)}, n = ${v.baseline.n}/${v.candidate.n}`;
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites${attrs({ name: 'chaos-arena', tests: 1, failures: failure ? 1 : 0, errors: 0, time: seconds })}>`,
    `  <testsuite${attrs({ name: 'regress', tests: 1, failures: failure ? 1 : 0, errors: 0, skipped: 0, time: seconds })}>`,
    '    <properties>',
    `      <property${attrs({ name: 'decision', value: v.decision })}/>`,
    `      <property${attrs({ name: 'p_value', value: v.p_value })}/>`,
    `      <property${attrs({ name: 'difference', value: v.difference })}/>`,
    `      <property${attrs({ name: 'test', value: v.test })}/>`,
    '    </properties>',
    `    <testcase${attrs({ classname: 'regress', name, time: seconds })}>`,
    ...(failure ? [`      <failure${attrs({ message: failure, type: 'regression' })}>${escapeXml(failure)}</failure>`] : []),
    `      <system-out>${escapeXml(summary)}</system-out>`,
    '    </testcase>',
    '  </testsuite>',
    '</testsuites>',
  ];
  return `${lines.join('\n')}\n`;
}

function writeOutput(ctx: CliContext, file: string, text: string, problems: string[]): void {
  const path = resolve(ctx.cwd, file);
  try {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
    ctx.stderr.write(`JUnit report written to ${file}\n`);
  } catch (err) {
    problems.push(`cannot write the JUnit report to ${file}: ${errorMessage(err)}`);
  }
}

function decisionText(decision: Verdict['decision']): string {
  if (decision === 'candidate better') return chalk.green(decision);
  if (decision === 'candidate worse') return chalk.red(decision);
  return chalk.yellow(decision);
}

function parseInteger(value: string | undefined, flag: string, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n < min) {
    throw new UsageError(`${flag}: expected an integer ≥ ${min}, got ${JSON.stringify(value)}`);
  }
  return n;
}

function parseNumber(value: string | undefined, flag: string, fallback: number, ok: (v: number) => boolean, expected: string): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || !ok(n)) throw new UsageError(`${flag}: expected ${expected}, got ${JSON.stringify(value)}`);
  return n;
}

function parseDurationFlag(value: string | undefined, flag: string, fallback: number): number {
  if (value === undefined) return fallback;
  const ms = tryParseDuration(value);
  if (ms === undefined) throw new UsageError(`${flag}: ${durationProblem(value)}`);
  return ms;
}

function signed(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  const text = formatNumber(Math.abs(n));
  return n > 0 ? `+${text}` : n < 0 ? `−${text}` : text;
}

function formatNumber(n: number): string {
  if (Number.isNaN(n)) return 'not defined';
  if (!Number.isFinite(n)) return n > 0 ? '∞' : '−∞';
  return Math.abs(n) >= 100 ? n.toFixed(1) : +n.toFixed(3) === 0 && n !== 0 ? n.toExponential(2) : String(+n.toFixed(3));
}

function formatPercent(p: number): string {
  if (p > 0.99) return '>99%';
  if (p < 0.01) return '<1%';
  return `${Math.round(p * 100)}%`;
}

function formatP(p: number): string {
  if (Number.isNaN(p)) return 'not defined';
  if (p === 0) return '0';
  if (p < 1e-4) return p.toExponential(2);
  return String(+p.toFixed(4));
}

/** a confidence level as a percentage with enough digits to never round up to 100 */
function formatLevel(level: number): string {
  const decimals = level < 1 ? Math.max(0, Math.ceil(-Math.log10(1 - level)) - 1) : 0;
  return String(+(level * 100).toFixed(Math.min(decimals, 12)));
}
