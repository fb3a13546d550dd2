/**
 * `arena shrink REPORT.json`: read the failing report, run candidates as real
 * scenario runs on a fresh target each, write the minimal scenario, print the
 * summary (or the --json document). Progress goes to stderr.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { isPlainObject } from '../../arena/actions.js';
import { loadScenarioFile } from '../../arena/scenario/load.js';
import type { ScenarioConfig } from '../../arena/scenario/types.js';
import {
  familiesOf,
  formatSignature,
  scheduleToScenario,
  scheduleToYaml,
  sequentialJudge,
  shrinkInputFromReport,
  shrinkSchedule,
  targetRunner,
  type Schedule,
} from '../../arena/shrink/index.js';
import { CancelledError, GateFailedError, UsageError, errorMessage, isArenaError } from '../../shared/errors.js';
import { startServeFeed } from '../commands/serve.js';
import type { CliContext } from '../context.js';
import { shrinkProgressReporter } from '../output/shrink-progress.js';
import {
  reproduceSurvival,
  SURVIVAL_ONLY_FLAGS,
  survivalOptionsFor,
  type SurvivalShrinkFlags,
} from './shrink-survival.js';
import { chooseTarget, targetRefPath, type TargetChoice } from './targets.js';
import type { TargetRef } from '../../arena/queue/requests.js';
import type { QueueRunnerOptions } from '../../arena/shrink/on-queue.js';
import { emitDryRun } from './dry-run.js';
import { openJobRecording, recordingSpec } from './job-recording.js';

export interface ShrinkCommandOptions extends SurvivalShrinkFlags {
  target?: string;
  strategy?: string;
  out: string;
  seed?: number;
  timeScale?: number;
  maxRuns?: number;
  json?: boolean;
  search?: 'quickxplain' | 'greedy';
  survival?: boolean;
  /** --serve [PORT]: true, a port, or absent */
  serve?: boolean | string;
  /** --store: record the progress into this event store for arena serve's Shrink view (or ARENA_STORE) */
  store?: string;
  dryRun?: boolean;
  workers?: string;
  parallel?: number;
}

const SURVIVAL_COOLDOWN_MS = 3000;

/** where the failing run comes from: a report file, or a survival seed run once here */
interface FailingRun {
  doc: unknown;
  config: Partial<ScenarioConfig>;
  /** the report file, or `survival --seed N` */
  source: string;
  /** runs spent finding it (the survival run) */
  runs: number;
  choice?: TargetChoice;
}

/** the failing run to shrink; undefined when a dry run of `--survival` has printed its plan instead */
async function failingRun(
  file: string | undefined,
  opts: ShrinkCommandOptions,
  ctx: CliContext,
): Promise<FailingRun | undefined> {
  if (opts.survival) {
    if (file !== undefined)
      throw new UsageError(`give a report or --survival, not both (got ${file})`, { code: 'invalid_arguments' });
    const options = survivalOptionsFor(opts); // bad flags are refused before a target starts
    const choice = await chooseTarget(opts, ctx);
    if (opts.dryRun) {
      // the survival that would find the failure is the first thing shrink runs: plan it, run nothing
      const { dryRunOnTarget } = await import('../../arena/dry-run/on-target.js');
      const seed = opts.seed!;
      const plan = await dryRunOnTarget(await choice.create(seed), { kind: 'survival', options: { ...options, seed } });
      emitDryRun(ctx, [plan], opts);
      return undefined;
    }
    const found = await reproduceSurvival(opts, choice, ctx);
    return { ...found, runs: 1, choice };
  }
  if (file === undefined)
    throw new UsageError('name a failing report, or use --survival --seed N to shrink a survival run', {
      code: 'missing_report',
    });
  const given = SURVIVAL_ONLY_FLAGS.filter((k) => opts[k] !== undefined);
  if (given.length > 0)
    throw new UsageError(
      `${given.map((k) => `--${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`).join(', ')} only apply with --survival`,
      { code: 'invalid_arguments' },
    );
  let doc: unknown;
  try {
    doc = JSON.parse(await readFile(resolve(ctx.cwd, file), 'utf8'));
  } catch (err) {
    throw new UsageError(`${file}: cannot read a JSON report: ${errorMessage(err)}`, { code: 'invalid_report' });
  }
  return { doc, config: await originalConfig(doc, ctx), source: file, runs: 0 };
}

export async function shrinkCommand(
  file: string | undefined,
  opts: ShrinkCommandOptions,
  ctx: CliContext,
): Promise<void> {
  if (opts.workers !== undefined && !opts.dryRun) {
    // refused before a survival run or anything else starts
    const { assertWorkersUrl } = await import('../../events/run-queue.js');
    assertWorkersUrl(opts.workers);
  } else if (opts.parallel !== undefined && !opts.dryRun)
    throw new UsageError('--parallel sets how many runs of a candidate start at once on the workers: give --workers', {
      code: 'invalid_arguments',
    });
  if (!opts.dryRun) recordingSpec(opts.store, ctx); // an empty --store is refused before anything runs
  const failing = await failingRun(file, opts, ctx);
  if (!failing) return;
  const { doc, config, source } = failing;
  const input = shrinkInputFromReport(doc, source, config.warmup_ms ?? 0);
  const invocation = opts.survival ? `arena shrink --${source}` : `arena shrink ${source}`;
  const seed = opts.seed ?? input.seed;
  const recorded = recordedStrategy(doc);
  const choice =
    failing.choice ??
    (opts.target === undefined && opts.strategy === undefined && recorded !== undefined
      ? {
          create: async (s: number) =>
            (await import('../../targets/embedded/index.js')).createEmbeddedTarget({ strategy: recorded, seed: s }),
        }
      : await chooseTarget(opts, ctx));
  const draft = {
    name: `${input.name}-shrunk`,
    seed,
    signature: input.signature,
    config,
    ...(input.min_score !== undefined ? { min_score: input.min_score } : {}),
  };
  if (opts.dryRun) {
    const { dryRunOnTarget } = await import('../../arena/dry-run/on-target.js');
    const scenario = scheduleToScenario(
      { faults: input.faults, cooldown_ms: config.cooldown_ms ?? SURVIVAL_COOLDOWN_MS },
      draft,
    );
    const target = await choice.create(seed);
    const plan = await dryRunOnTarget(target, {
      kind: 'scenario',
      scenario,
      seed,
      ...(opts.timeScale !== undefined ? { timeScale: opts.timeScale } : {}),
    });
    emitDryRun(ctx, [plan], opts);
    return;
  }
  const runnerOptions = {
    ...draft,
    signal: ctx.signal,
    ...(opts.timeScale !== undefined ? { timeScale: opts.timeScale } : {}),
  };
  // --serve: the shrink's progress on /arena/stream (shrink.started, shrink.progress, shrink.smaller, shrink.finished)
  const feed = await startServeFeed(opts.serve, ctx);
  // --store: the same events into an event store, for the web console of an arena serve on it
  const recording = await openJobRecording(opts.store, ctx, { command: 'shrink', view: 'Shrink' }, async (store) =>
    (await import('../../events/shrink-progress.js')).createShrinkRecorder(store),
  ).catch(async (err: unknown) => {
    await feed?.close();
    throw err;
  });
  const publish = (name: string, data: Record<string, unknown>) => {
    feed?.publish(name, data);
    recording?.recorder.publish(name, data);
  };
  const queue =
    opts.workers === undefined
      ? undefined
      : await openShrinkQueue(opts.workers, seed, ctx, {
          ...(opts.target !== undefined ? { file: targetRefPath(ctx.cwd, opts.target) } : {}),
          ...(await refStrategy(opts, ctx, opts.target === undefined ? recorded : undefined)),
        }).catch(async (err: unknown) => {
          await feed?.close();
          await recording?.close();
          throw err;
        });
  const onWorkers = queue?.runner({
    ...runnerOptions,
    ...(opts.parallel !== undefined ? { width: opts.parallel } : {}),
  });
  const runOnce = onWorkers ?? targetRunner({ ...runnerOptions, createTarget: (s) => choice.create(s) });
  const judge = sequentialJudge(
    runOnce,
    opts.maxRuns !== undefined ? { maxRuns: Math.max(1, Math.floor(opts.maxRuns)) } : {},
  );
  // every run spent, the survival that found the failure included
  const runsSpent = () => failing.runs + judge.runsSpent();
  try {
    ctx.stderr.write(
      `shrink: ${input.faults.length} fault(s) of ${input.kind} ${input.name} (seed ${seed}); failure: ${formatSignature(input.signature)}\n`,
    );
    publish('shrink.started', {
      original_faults: input.faults.length,
      signature: input.signature,
      search: opts.search ?? 'quickxplain',
      seed,
      source,
      target:
        opts.target ??
        (opts.strategy !== undefined
          ? `embedded runtime, --strategy ${opts.strategy}`
          : recorded !== undefined
            ? "embedded runtime, the report's strategy"
            : 'embedded runtime'),
    });
    const reporter = shrinkProgressReporter(ctx);
    const original = { faults: input.faults, cooldown_ms: config.cooldown_ms ?? SURVIVAL_COOLDOWN_MS };
    let outcome: Awaited<ReturnType<typeof shrinkSchedule>>;
    let smallest: Schedule | undefined;
    const started = () =>
      onWorkers
        ? `; ${onWorkers.runsStarted()} run(s) started on the workers (the sequential test used ${judge.runsSpent()})`
        : '';
    try {
      outcome = await shrinkSchedule(original, {
        judge,
        onProgress: (p) => {
          reporter.progress(p);
          publish('shrink.progress', { ...p });
        },
        runsSpent,
        signal: ctx.signal,
        ...(opts.search !== undefined ? { search: opts.search } : {}),
        ...(queue ? { width: queue.roundWidth } : {}),
        onSmaller: (s) => {
          smallest = s;
          reporter.smaller(s, input.faults.length);
          publish('shrink.smaller', {
            size: s.faults.length,
            of: input.faults.length,
            faults: s.faults.map((f) => f.label),
            runs: runsSpent(),
          });
        },
      });
    } catch (err) {
      reporter.done();
      if (!ctx.signal.aborted) throw err;
      const smallestText = smallest
        ? `smallest failing set so far (${smallest.faults.length} of ${input.faults.length}, not shown minimal): ${smallest.faults.map((f) => f.label).join(', ')}`
        : 'no failure confirmed yet';
      throw new CancelledError(`interrupted after ${runsSpent()} run(s); ${smallestText}; nothing written${started()}`);
    }
    reporter.done();
    if (queue) ctx.stderr.write(`shrink:${started().slice(1)}\n`);
    if (!outcome.reproduced)
      throw new GateFailedError(
        `the failure (${formatSignature(input.signature)}) did not reproduce in ${outcome.runs_to_reproduce} runs (${outcome.failures} failed with it); nothing to shrink`,
        { code: 'not_reproduced' },
      );
    const signature = {
      failures: input.signature.failures,
      families: familiesOf(outcome.schedule.faults.map((f) => f.type)),
    };
    const on =
      opts.target !== undefined
        ? `--target ${opts.target}`
        : opts.strategy !== undefined
          ? `--strategy ${opts.strategy}`
          : recorded !== undefined
            ? 'the recovery strategy recorded in the report (pass the same --strategy)'
            : 'the embedded runtime';
    const header =
      `# generated by \`${invocation}\`: ${input.faults.length} fault(s) → ${outcome.schedule.faults.length}, fails with ${formatSignature(signature)}\n` +
      `# it fails on the target it was shrunk on: ${on}\n`;
    await writeFile(resolve(ctx.cwd, opts.out), scheduleToYaml(outcome.schedule, { ...draft, signature }, header));
    const faults = [...outcome.schedule.faults]
      .sort((a, b) => a.at_ms - b.at_ms)
      .map((f) => ({
        type: f.type,
        ...(f.target_id !== undefined ? { target_id: f.target_id } : {}),
        ...(f.source_id !== undefined ? { source_id: f.source_id } : {}),
        at_ms: f.at_ms,
        label: f.label,
        ...(f.metadata !== undefined ? { metadata: f.metadata } : {}),
      }));
    const document = {
      schema_version: 1,
      signature,
      original_faults: input.faults.length,
      minimal_faults: faults.length,
      faults,
      runs: runsSpent(),
      // where the runs went: the survival run of --survival, then each phase (runs and candidates judged)
      runs_by_phase: {
        ...(failing.runs > 0 ? { survival: { runs: failing.runs, candidates: 0 } } : {}),
        ...outcome.phases,
      },
      candidates: outcome.candidates,
      method: outcome.method,
      cooldown_ms: outcome.schedule.cooldown_ms,
      out: opts.out,
      certificate: outcome.certificate.map((c) => ({
        fault: c.fault,
        fail_rate_without: c.fail_rate_without,
        runs: c.runs,
        interval: c.interval,
      })),
    };
    publish('shrink.finished', {
      status: 'shrunk',
      original_faults: document.original_faults,
      minimal_faults: document.minimal_faults,
      faults: faults.map((f) => f.label),
      runs: document.runs,
      runs_by_phase: document.runs_by_phase,
      candidates: document.candidates,
      method: document.method,
      certificate: document.certificate,
    });
    if (opts.json) {
      ctx.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
      return;
    }
    const lines = [
      `shrunk ${input.faults.length} fault(s) to ${faults.length} in ${document.runs} run(s) (${document.candidates} candidates, ${document.method}); wrote ${opts.out}`,
      `runs by phase: ${Object.entries(document.runs_by_phase)
        .map(([phase, c]) => `${phase} ${c.runs}`)
        .join(' · ')}`,
      `fails with: ${formatSignature(signature)}`,
      ...faults.map(
        (f) => `  ${String(f.at_ms).padStart(6)} ms  ${f.type}${f.target_id ? ` ${f.target_id}` : ''}  (${f.label})`,
      ),
      'certificate (failure rate without each fault, 95% Wilson interval):',
      ...document.certificate.map(
        (c) =>
          `  ${c.fault}: ${(c.fail_rate_without * 100).toFixed(0)}% of ${c.runs} run(s) [${(c.interval[0] * 100).toFixed(0)}%, ${(c.interval[1] * 100).toFixed(0)}%]`,
      ),
      // only the last fault can stay while the failure goes on without it: a scenario needs one fault
      ...document.certificate
        .filter((c) => c.fail_rate_without >= 0.5)
        .map((c) => `note: the target fails without ${c.fault} too, with no fault at all: the failure is its own`),
    ];
    ctx.stdout.write(`${lines.join('\n')}\n`);
  } catch (err) {
    const status = ctx.signal.aborted
      ? 'interrupted'
      : isArenaError(err, 'not_reproduced')
        ? 'not_reproduced'
        : 'error';
    publish('shrink.finished', { status, runs: runsSpent(), message: errorMessage(err) });
    throw err;
  } finally {
    await queue?.close();
    await feed?.close();
    await recording?.close();
  }
}

/**
 * `--workers`: the queue the candidates' runs go on (src/arena/shrink/on-queue.ts); the workers build
 * the target from `ref` as `choice` builds it here
 */
async function openShrinkQueue(url: string, seed: number, ctx: CliContext, ref: TargetRef) {
  const [{ openQueueClient }, { queueRunner, ROUND_WIDTH_ON_WORKERS }, { randomUUID }] = await Promise.all([
    import('../../events/run-queue.js'),
    import('../../arena/shrink/on-queue.js'),
    import('node:crypto'),
  ]);
  const queue = await openQueueClient(url, `shrink-${seed}-${randomUUID().slice(0, 8)}`);
  ctx.stderr.write(`shrink: candidate runs queued in ${queue.location} for arena worker processes\n`);
  return {
    runner: (options: Omit<QueueRunnerOptions, 'client' | 'target'>) =>
      queueRunner({ ...options, client: queue.client, target: ref }),
    roundWidth: ROUND_WIDTH_ON_WORKERS,
    close: () => queue.close(),
  };
}

/** the embedded runtime's strategy as the workers apply it: --strategy's file, else the report's */
async function refStrategy(
  opts: ShrinkCommandOptions,
  ctx: CliContext,
  recorded: Record<string, unknown> | undefined,
): Promise<Pick<TargetRef, 'strategy'>> {
  if (opts.strategy !== undefined) {
    const { loadStrategyFile } = await import('../../runtime/strategy.js');
    return {
      strategy: (await loadStrategyFile(resolve(ctx.cwd, opts.strategy))) as unknown as Record<string, unknown>,
    };
  }
  return recorded !== undefined ? { strategy: recorded } : {};
}

/** the original scenario's timings when the report names a file that still loads; defaults otherwise */
async function originalConfig(doc: unknown, ctx: CliContext): Promise<Partial<ScenarioConfig>> {
  if (isPlainObject(doc) && isPlainObject(doc.survival)) return { warmup_ms: 0, cooldown_ms: SURVIVAL_COOLDOWN_MS };
  const scenarios = isPlainObject(doc) && Array.isArray(doc.scenarios) ? doc.scenarios : [];
  const failed = scenarios.find((s) => isPlainObject(s) && s.status === 'failed');
  const file = isPlainObject(failed) && typeof failed.file === 'string' ? failed.file : undefined;
  if (file !== undefined) {
    try {
      const s = await loadScenarioFile(resolve(ctx.cwd, file));
      const c = s.config;
      return {
        warmup_ms: c.warmup_ms,
        cooldown_ms: c.cooldown_ms,
        ...(c.recovery_deadline_ms !== undefined ? { recovery_deadline_ms: c.recovery_deadline_ms } : {}),
      };
    } catch {
      // the file moved or changed: the defaults below are what a scenario without timings runs with
    }
  }
  return { warmup_ms: 1000, cooldown_ms: 3000 };
}

function recordedStrategy(doc: unknown): Record<string, unknown> | undefined {
  if (!isPlainObject(doc)) return undefined;
  const run = isPlainObject(doc.survival)
    ? doc.survival
    : Array.isArray(doc.scenarios)
      ? doc.scenarios.find((s) => isPlainObject(s) && s.status === 'failed')
      : undefined;
  return isPlainObject(run) && isPlainObject(run.strategy) && Object.keys(run.strategy).length > 0
    ? run.strategy
    : undefined;
}
