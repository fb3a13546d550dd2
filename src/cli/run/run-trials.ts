/**
 * `arena trials`: load the target (its steady-state workload off: its calls would mix with the trials')
 * and the scenario, run the trials (arena/trials), print the table or the JSON document, write the
 * report and JUnit files, and map the outcome to the exit code's error.
 */
import { resolve } from 'node:path';
import { targetRefPath } from './targets.js';
import type { Target } from '../../arena/providers.js';
import { loadScenarioFile } from '../../arena/scenario/load.js';
import type { TrialsReport } from '../../arena/trials/report.js';
import { checkTrialsOptions, runTrialsOnTarget, type RunTrialsOptions } from '../../arena/trials/run.js';
import { parseDuration } from '../../shared/duration.js';
import { CancelledError, GateFailedError, RuntimeError, StoppedError, UsageError } from '../../shared/errors.js';
import { randomSeed } from '../../shared/random.js';
import type { CliContext } from '../context.js';
import { tryWrite } from '../output/emit.js';
import { terminalWidth } from '../output/fit.js';
import { withNonFiniteExplained } from '../output/json.js';
import { trialsJUnit } from '../output/junit.js';
import { applyColor, resolveOutputMode } from '../output/mode.js';
import { renderTrialsTable } from '../output/trials-table.js';
import { emitDryRun } from './dry-run.js';
import { whileRegistered } from './registered.js';
import { readStopWhenOption } from './stop-when-option.js';
import { openJobRecording } from './job-recording.js';

export interface TrialsCommandOptions {
  target?: string;
  scenario?: string;
  trials: number;
  k?: number[];
  intensity?: number[];
  seed?: number;
  minPassK?: Array<{ k: number; value: number }>;
  maxCostRatio?: number;
  recoveryDeadline?: string;
  json?: boolean;
  junit?: string;
  report?: string;
  color?: boolean;
  stopWhen?: string;
  dryRun?: boolean;
  store?: string;
  workers?: string;
}

const DEFAULT_KS = [1, 2, 4, 8];

async function createTarget(file: string | undefined, seed: number, ctx: CliContext): Promise<Target> {
  if (file === undefined) {
    const { createEmbeddedTarget } = await import('../../targets/embedded/index.js');
    return createEmbeddedTarget({ seed, workload: false });
  }
  const { loadTargetFile } = await import('../../targets/file.js');
  const loaded = await loadTargetFile(resolve(ctx.cwd, file), file);
  return loaded.create({ seed, env: ctx.env, signal: ctx.signal, workload: false });
}

export async function trialsCommand(opts: TrialsCommandOptions, ctx: CliContext): Promise<void> {
  const mode = resolveOutputMode({ json: opts.json, color: opts.color, tui: false }, ctx);
  applyColor(mode);
  const seed = opts.seed ?? randomSeed();
  const scenario = opts.scenario ? await loadScenarioFile(resolve(ctx.cwd, opts.scenario)) : undefined;
  const options: RunTrialsOptions = {
    n: opts.trials,
    ks: opts.k ?? DEFAULT_KS.filter((k) => k <= opts.trials),
    seed,
    scenario,
    intensities: opts.intensity,
    signal: ctx.signal,
    ...(opts.stopWhen !== undefined ? { stopWhen: readStopWhenOption(opts.stopWhen, ctx.cwd), env: ctx.env } : {}),
    gates: {
      ...(opts.minPassK ? { minPassK: opts.minPassK } : {}),
      ...(opts.maxCostRatio !== undefined ? { maxCostRatio: opts.maxCostRatio } : {}),
    },
    ...(opts.recoveryDeadline !== undefined ? { recoveryDeadlineMs: parseDuration(opts.recoveryDeadline) } : {}),
    onTrial: (t, done, total) =>
      ctx.stderr.write(
        `trials: ${done}/${total} ${t.arm} ${t.task} round ${t.round + 1}: ${t.passed ? 'passed' : `failed${t.detail ? ` (${t.detail})` : ''}`}\n`,
      ),
  };
  if (!opts.minPassK && opts.maxCostRatio === undefined) delete options.gates;
  checkTrialsOptions(options); // bad input → exit 2 before the target starts
  if (opts.workers !== undefined && !opts.dryRun) {
    const { assertWorkersUrl } = await import('../../events/run-queue.js');
    assertWorkersUrl(opts.workers);
    if (opts.stopWhen !== undefined)
      throw new UsageError(
        '--stop-when watches the target this process started; with --workers each round runs on a worker’s own target: drop one of them',
        { code: 'invalid_trials' },
      );
  }
  if (opts.dryRun) {
    const { dryRunOnTarget } = await import('../../arena/dry-run/on-target.js');
    const target = await createTarget(opts.target, seed, ctx);
    const request = { n: options.n, seed, scenario, intensities: options.intensities };
    emitDryRun(ctx, [await dryRunOnTarget(target, { kind: 'trials', options: request })], opts);
    return;
  }
  await whileRegistered(ctx, 'trials', () => runTrials(opts, ctx, mode, options));
}

async function runTrials(
  opts: TrialsCommandOptions,
  ctx: CliContext,
  mode: ReturnType<typeof resolveOutputMode>,
  options: RunTrialsOptions,
): Promise<void> {
  const { seed, scenario } = options;
  const target = await createTarget(opts.target, seed, ctx);
  ctx.stderr.write(
    `trials: seed ${seed}, ${options.n} per task per arm on ${target.name}${scenario ? ` under ${scenario.name}` : ''}\n`,
  );
  const recording = await openJobRecording(opts.store, ctx, { command: 'trials', view: 'Trials' }, async (store) =>
    (await import('../../events/trials-progress.js')).createTrialsRecorder(store),
  );
  let report: TrialsReport;
  try {
    const recorder = recording?.recorder;
    const recorded: RunTrialsOptions = recorder
      ? {
          ...options,
          onStart: (plan) => recorder.started(plan),
          onTrial: (trial, done, total) => {
            recorder.trial(trial);
            options.onTrial?.(trial, done, total);
          },
        }
      : options;
    report =
      opts.workers === undefined
        ? await runTrialsOnTarget(target, recorded)
        : await onWorkers(opts, ctx, target, recorded, opts.workers);
    recorder?.finished(report);
  } catch (err) {
    recording?.recorder.failed(err);
    throw err;
  } finally {
    await recording?.close();
  }
  const doc = withNonFiniteExplained(report);
  const json = `${JSON.stringify(doc, null, 2)}\n`;
  const problems: string[] = [];
  if (opts.report) tryWrite(ctx, opts.report, json, 'report', problems);
  if (opts.junit) tryWrite(ctx, opts.junit, trialsJUnit(report), 'JUnit report', problems);
  ctx.stdout.write(mode.kind === 'json' ? json : renderTrialsTable(report, terminalWidth(ctx.stdout)));
  if (problems.length > 0) throw new UsageError(problems.join('; '), { code: 'output_not_writable' });
  throwForStatus(report);
}

/** `--workers`: the rounds go on the queue; `target` (never started here) names the tasks */
async function onWorkers(
  opts: TrialsCommandOptions,
  ctx: CliContext,
  target: Target,
  options: RunTrialsOptions,
  url: string,
): Promise<TrialsReport> {
  const [{ openQueueClient }, { runTrialsOnQueue }, { randomUUID }] = await Promise.all([
    import('../../events/run-queue.js'),
    import('../../arena/trials/on-queue.js'),
    import('node:crypto'),
  ]);
  const queue = await openQueueClient(url, `trials-${options.seed}-${randomUUID().slice(0, 8)}`);
  ctx.stderr.write(`trials: rounds queued in ${queue.location} for arena worker processes\n`);
  try {
    return await runTrialsOnQueue(target, {
      ...options,
      client: queue.client,
      ref: opts.target === undefined ? {} : { file: targetRefPath(ctx.cwd, opts.target) },
    });
  } finally {
    await queue.close();
  }
}

function throwForStatus(report: TrialsReport): void {
  switch (report.status) {
    case 'passed':
      return;
    case 'failed': {
      if (report.stopped_by)
        throw new GateFailedError(report.error ?? 'stopped early', { code: 'stopped_by_condition' });
      const failed = (report.gates ?? []).filter((g) => !g.passed);
      throw new GateFailedError(
        `${failed.length} trials gate(s) failed: ${failed.map((g) => `${g.task} ${g.name} (${g.detail})`).join('; ')}`,
        { code: 'trials_gate_failed' },
      );
    }
    case 'inconclusive':
      throw new GateFailedError(report.error ?? 'inconclusive', { code: 'trials_inconclusive' });
    case 'interrupted':
      throw new CancelledError('interrupted: faults reverted, partial trials reported');
    case 'stopped':
      throw new StoppedError('stopped by arena stop: faults reverted, partial trials reported');
    case 'error':
      throw new RuntimeError(report.error ?? 'the trials run ended in an error', { code: 'trials_error' });
  }
}
