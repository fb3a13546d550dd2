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
  type ShrinkProgress,
} from '../../arena/shrink/index.js';
import { CancelledError, GateFailedError, UsageError, errorMessage } from '../../shared/errors.js';
import type { CliContext } from '../context.js';
import { chooseTarget } from './targets.js';
import { emitDryRun } from './dry-run.js';

export interface ShrinkCommandOptions {
  target?: string;
  strategy?: string;
  out: string;
  seed?: number;
  timeScale?: number;
  maxRuns?: number;
  json?: boolean;
  search?: 'quickxplain' | 'greedy';
  dryRun?: boolean;
}

const SURVIVAL_COOLDOWN_MS = 3000;

export async function shrinkCommand(file: string, opts: ShrinkCommandOptions, ctx: CliContext): Promise<void> {
  let doc: unknown;
  try {
    doc = JSON.parse(await readFile(resolve(ctx.cwd, file), 'utf8'));
  } catch (err) {
    throw new UsageError(`${file}: cannot read a JSON report: ${errorMessage(err)}`, 'invalid_report');
  }
  const config = await originalConfig(doc, ctx);
  const input = shrinkInputFromReport(doc, file, config.warmup_ms ?? 0);
  const seed = opts.seed ?? input.seed;
  const recorded = recordedStrategy(doc);
  const choice =
    opts.target === undefined && opts.strategy === undefined && recorded !== undefined
      ? {
          create: async (s: number) =>
            (await import('../../targets/embedded/index.js')).createEmbeddedTarget({ strategy: recorded, seed: s }),
        }
      : await chooseTarget(opts, ctx);
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
  const judge = sequentialJudge(
    targetRunner({
      ...draft,
      createTarget: (s) => choice.create(s),
      signal: ctx.signal,
      ...(opts.timeScale !== undefined ? { timeScale: opts.timeScale } : {}),
    }),
    opts.maxRuns !== undefined ? { maxRuns: Math.max(1, Math.floor(opts.maxRuns)) } : {},
  );
  ctx.stderr.write(
    `shrink: ${input.faults.length} fault(s) of ${input.kind} ${input.name} (seed ${seed}); failure: ${formatSignature(input.signature)}\n`,
  );
  const onProgress = (p: ShrinkProgress) =>
    ctx.stderr.write(`shrink: ${p.phase} · candidate ${p.candidates} · size ${p.size} · runs ${p.runs}\n`);
  const original = { faults: input.faults, cooldown_ms: config.cooldown_ms ?? SURVIVAL_COOLDOWN_MS };
  let outcome: Awaited<ReturnType<typeof shrinkSchedule>>;
  let smallest: Schedule | undefined;
  try {
    outcome = await shrinkSchedule(original, {
      judge,
      onProgress,
      runsSpent: judge.runsSpent,
      signal: ctx.signal,
      ...(opts.search !== undefined ? { search: opts.search } : {}),
      onSmaller: (s) => {
        smallest = s;
      },
    });
  } catch (err) {
    if (!ctx.signal.aborted) throw err;
    const found = smallest
      ? `smallest failing set so far (${smallest.faults.length} of ${input.faults.length}, not shown minimal): ${smallest.faults.map((f) => f.label).join(', ')}`
      : 'no failure confirmed yet';
    throw new CancelledError(`interrupted after ${judge.runsSpent()} run(s); ${found}; nothing written`);
  }
  if (!outcome.reproduced)
    throw new GateFailedError(
      `the failure (${formatSignature(input.signature)}) did not reproduce in ${outcome.runs_to_reproduce} runs (${outcome.failures} failed with it); nothing to shrink`,
      'not_reproduced',
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
    `# generated by \`arena shrink ${file}\`: ${input.faults.length} fault(s) → ${outcome.schedule.faults.length}, fails with ${formatSignature(signature)}\n` +
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
    runs: judge.runsSpent(),
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
  if (opts.json) {
    ctx.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
    return;
  }
  const lines = [
    `shrunk ${input.faults.length} fault(s) to ${faults.length} in ${document.runs} run(s) (${document.candidates} candidates, ${document.method}); wrote ${opts.out}`,
    `fails with: ${formatSignature(signature)}`,
    ...faults.map(
      (f) => `  ${String(f.at_ms).padStart(6)} ms  ${f.type}${f.target_id ? ` ${f.target_id}` : ''}  (${f.label})`,
    ),
    'certificate (failure rate without each fault, 95% Wilson interval):',
    ...document.certificate.map(
      (c) =>
        `  ${c.fault}: ${(c.fail_rate_without * 100).toFixed(0)}% of ${c.runs} run(s) [${(c.interval[0] * 100).toFixed(0)}%, ${(c.interval[1] * 100).toFixed(0)}%]`,
    ),
  ];
  ctx.stdout.write(`${lines.join('\n')}\n`);
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
