/**
 * `arena shrink --survival --seed N …`: the failing run comes from a survival seed rather than a report
 * file. The survival runs once on the chosen target, as `arena survival` would with the same flags, and
 * its report is what shrink reads; a seed that passes there is said so (exit 1), nothing more is run.
 */
import type { ScenarioConfig } from '../../arena/scenario/types.js';
import { resolveSurvivalConfig, runSurvivalOnTarget, type SurvivalOptions } from '../../arena/survival/index.js';
import { parseDuration } from '../../shared/duration.js';
import { CancelledError, GateFailedError, UsageError } from '../../shared/errors.js';
import type { CliContext } from '../context.js';
import { survivalDocument } from '../output/json.js';
import type { TargetChoice } from './targets.js';

export interface SurvivalShrinkFlags {
  seed?: number;
  duration?: string;
  interval?: string;
  actions?: string;
  warmup?: string;
  cooldown?: string;
  recoveryDeadline?: string;
  minScore?: number;
}

/** the flags that only make sense with --survival, as commander names them */
export const SURVIVAL_ONLY_FLAGS: ReadonlyArray<keyof SurvivalShrinkFlags> = [
  'duration',
  'interval',
  'actions',
  'warmup',
  'cooldown',
  'recoveryDeadline',
  'minScore',
];

export interface ReproducedSurvival {
  /** the survival's report document, as `arena survival --json` prints it */
  doc: unknown;
  /** the timings each candidate runs with: the survival's own */
  config: Partial<ScenarioConfig>;
  /** what the output names as its source */
  source: string;
}

/** the survival options these flags ask for; bad input is refused (exit 2) before anything starts */
export function survivalOptionsFor(flags: SurvivalShrinkFlags, signal?: AbortSignal): SurvivalOptions {
  if (flags.seed === undefined)
    throw new UsageError('--survival needs --seed N: the seed of the failing survival run to shrink', {
      code: 'missing_seed',
    });
  const options: SurvivalOptions = {
    duration: flags.duration ?? '60s',
    interval: flags.interval ?? '2s',
    seed: flags.seed,
    ...(signal ? { signal } : {}),
    ...(flags.actions !== undefined ? { actions: flags.actions } : {}),
    ...(flags.warmup !== undefined ? { warmup: flags.warmup } : {}),
    ...(flags.cooldown !== undefined ? { cooldown: flags.cooldown } : {}),
    ...(flags.minScore !== undefined ? { minScore: flags.minScore } : {}),
    ...(flags.recoveryDeadline !== undefined ? { recoveryDeadlineMs: parseDuration(flags.recoveryDeadline) } : {}),
  };
  resolveSurvivalConfig(options);
  return options;
}

export async function reproduceSurvival(
  flags: SurvivalShrinkFlags,
  choice: TargetChoice,
  ctx: CliContext,
): Promise<ReproducedSurvival> {
  const options = survivalOptionsFor(flags, ctx.signal);
  const resolved = resolveSurvivalConfig(options);
  const source = `survival --seed ${resolved.seed}`;
  ctx.stderr.write(
    `shrink: running ${source} (${resolved.durationMs} ms, a fault every ${resolved.intervalMs} ms) to find its failure\n`,
  );
  const report = await runSurvivalOnTarget(await choice.create(resolved.seed), options);
  if (ctx.signal.aborted)
    throw new CancelledError(`interrupted while running ${source}; no failure to shrink yet, nothing written`);
  if (report.status !== 'failed')
    throw new GateFailedError(
      `${source} did not fail on this target (status ${report.status}, 1 run); nothing to shrink`,
      { code: 'not_reproduced' },
    );
  // the faults' planned times count from the start of the run, warmup included (as a survival report's do)
  return {
    doc: JSON.parse(JSON.stringify(survivalDocument(report))),
    config: {
      warmup_ms: 0,
      cooldown_ms: resolved.cooldownMs,
      ...(options.recoveryDeadlineMs !== undefined ? { recovery_deadline_ms: options.recoveryDeadlineMs } : {}),
    },
    source,
  };
}
