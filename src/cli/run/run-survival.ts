/**
 * `arena survival`: a fresh embedded target, random faults, the measured
 * report printed (table or JSON) and written (--report, --junit,
 * --save-scenario). Imported lazily by the command.
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { chooseTarget, type TargetChoice } from './targets.js';
import { whileRegistered } from './registered.js';
import { emitDryRun } from './dry-run.js';
import {
  runSurvivalOnTarget,
  resolveSurvivalConfig,
  survivalToScenarioYaml,
  type SurvivalOptions,
} from '../../arena/survival/index.js';
import type { SurvivalReport } from '../../arena/report.js';
import { randomSeed } from '../../shared/random.js';
import type { GateOn } from '../../arena/score.js';
import { parseDuration } from '../../shared/duration.js';
import { UsageError, errorMessage } from '../../shared/errors.js';
import type { CliContext } from '../context.js';
import { applyColor, resolveOutputMode, type OutputMode } from '../output/mode.js';
import { runWithOutput } from './with-output.js';
import { emitDocument, metricsOutput } from '../output/emit.js';
import { isGitHubActions, reportToGitHub } from '../output/github.js';
import { survivalDocument } from '../output/json.js';
import { renderSurvivalTable } from '../output/table.js';
import { terminalWidth } from '../output/fit.js';
import { survivalJUnit } from '../output/junit.js';
import type { OutputOptionValues } from '../commands/options.js';
import { throwForOutcomes } from './outcome.js';
import { readStopWhenOption } from './stop-when-option.js';

export interface SurvivalCommandOptions extends OutputOptionValues {
  duration: string;
  interval: string;
  actions?: string;
  seed?: number;
  strategy?: string;
  target?: string;
  minScore?: number;
  gate?: GateOn;
  warmup?: string;
  cooldown?: string;
  saveScenario?: string;
  recoveryDeadline?: string;
  stopWhen?: string;
  dryRun?: boolean;
}

export async function survivalCommand(
  opts: SurvivalCommandOptions,
  ctx: CliContext,
  extra: Partial<SurvivalOptions> = {},
): Promise<void> {
  const mode = resolveOutputMode(opts, ctx);
  applyColor(mode);
  const seed = opts.seed ?? randomSeed();
  const options: SurvivalOptions = {
    duration: opts.duration,
    interval: opts.interval,
    seed,
    signal: ctx.signal,
    ...(opts.actions !== undefined ? { actions: opts.actions } : {}),
    ...(opts.minScore !== undefined ? { minScore: opts.minScore } : {}),
    ...(opts.gate !== undefined ? { gate: opts.gate } : {}),
    ...(opts.warmup !== undefined ? { warmup: opts.warmup } : {}),
    ...(opts.cooldown !== undefined ? { cooldown: opts.cooldown } : {}),
    ...(opts.recoveryDeadline !== undefined ? { recoveryDeadlineMs: parseDuration(opts.recoveryDeadline) } : {}),
    ...(opts.stopWhen !== undefined ? { stopWhen: readStopWhenOption(opts.stopWhen, ctx.cwd), env: ctx.env } : {}),
    ...extra,
  };
  resolveSurvivalConfig(options); // bad input → exit 2 before anything starts
  const choice = await chooseTarget(opts, ctx);
  if (opts.dryRun) {
    const { dryRunOnTarget } = await import('../../arena/dry-run/on-target.js');
    const target = await choice.create(seed);
    emitDryRun(ctx, [await dryRunOnTarget(target, { kind: 'survival', options: { ...options, seed } })], opts);
    return;
  }
  await whileRegistered(ctx, 'survival', () => survive(opts, ctx, mode, choice, options));
}

async function survive(
  opts: SurvivalCommandOptions,
  ctx: CliContext,
  mode: OutputMode,
  choice: TargetChoice,
  options: SurvivalOptions,
): Promise<void> {
  const seed = options.seed!;
  if (mode.kind !== 'tty') ctx.stderr.write(`survival: seed ${seed} (replay with --seed ${seed})\n`);
  // the target is built once the plugins are open: --otlp traces its LLM proxies, --serve reads its counters
  const report = await runWithOutput(ctx, opts, mode, async (onEvent, sinks, targets) =>
    runSurvivalOnTarget(await targets.create(choice, seed), {
      ...options,
      onEvent,
      ...sinks,
      onNotice: (line) => ctx.stderr.write(`${line}\n`),
    }),
  );
  if (opts.saveScenario) saveScenario(ctx, opts.saveScenario, report);
  if (isGitHubActions(ctx.env)) reportToGitHub(ctx, [{ kind: 'survival', report }], mode.kind === 'json');
  emitDocument(
    ctx,
    mode,
    survivalDocument(report),
    () => renderSurvivalTable(report, terminalWidth(ctx.stdout)),
    () => survivalJUnit(report),
    {
      report: opts.report,
      junit: opts.junit,
      ...(await metricsOutput(opts.metricsFile, () => [{ kind: 'survival', report }])),
    },
  );
  throwForOutcomes([{ name: 'survival', ...report }], opts.report);
}

function saveScenario(ctx: CliContext, file: string, report: SurvivalReport): void {
  if (report.timeline.length === 0) {
    ctx.stderr.write(`--save-scenario: the run executed no action, nothing written to ${file}\n`);
    return;
  }
  try {
    writeFileSync(resolve(ctx.cwd, file), survivalToScenarioYaml(report));
    ctx.stderr.write(`scenario written to ${file} (run it with: arena scenario run ${file})\n`);
  } catch (err) {
    throw new UsageError(`cannot write the scenario to ${file}: ${errorMessage(err)}`, { code: 'output_not_writable' });
  }
}
