/**
 * `arena scenario run`: every file validated first (any problem → exit 2,
 * nothing run), then each scenario on a fresh embedded target; the document
 * printed and written even when a run fails or is interrupted.
 */
import { resolve } from 'node:path';
import { chooseTarget, type TargetChoice } from './targets.js';
import { runScenarioOnTarget } from '../../arena/scenario/index.js';
import { formatProblem } from '../../arena/scenario/load.js';
import type { Scenario } from '../../arena/scenario/types.js';
import type { ScenarioReport } from '../../arena/report.js';
import type { GateOn } from '../../arena/score.js';
import { randomSeed } from '../../shared/random.js';
import { CancelledError, UsageError, isArenaError } from '../../shared/errors.js';
import { readFile } from 'node:fs/promises';
import { parseYamlSource } from '../../shared/yaml-source.js';
import type { ScenarioProblem } from '../../arena/scenario/types.js';
import type { CliContext } from '../context.js';
import type { OutputOptionValues } from '../commands/options.js';
import { applyColor, resolveOutputMode, type OutputMode } from '../output/mode.js';
import { whileRegistered } from './registered.js';
import { emitDryRun } from './dry-run.js';
import { emitDocument, metricsOutput } from '../output/emit.js';
import { isGitHubActions, reportToGitHub } from '../output/github.js';
import { scenarioDocument } from '../output/json.js';
import { renderScenarioTables } from '../output/table.js';
import { terminalWidth } from '../output/fit.js';
import { scenarioJUnit } from '../output/junit.js';
import { runWithOutput } from './with-output.js';
import { throwForOutcomes } from './outcome.js';
import { validateFiles } from './validate-scenarios.js';
import { checkScenarioFile } from '../../arena/scenario/load.js';

export interface ScenarioRunOptions extends OutputOptionValues {
  seed?: number;
  minScore?: number;
  gate?: GateOn;
  strategy?: string;
  target?: string;
  timeScale?: number;
  dryRun?: boolean;
}

export async function scenarioRunCommand(files: string[], opts: ScenarioRunOptions, ctx: CliContext): Promise<void> {
  const mode = resolveOutputMode(opts, ctx);
  applyColor(mode);
  const scenarios = await loadAll(files, ctx);
  // every target file is checked before the first run starts
  const targets: TargetChoice[] = [];
  for (const scenario of scenarios)
    targets.push(
      await chooseTarget(opts, ctx, {
        ...(scenario.config.target !== undefined ? { target: scenario.config.target } : {}),
        ...(scenario.file !== undefined ? { file: scenario.file } : {}),
      }),
    );
  if (opts.dryRun) {
    const { dryRunOnTarget } = await import('../../arena/dry-run/on-target.js');
    const plans = [];
    for (const [i, scenario] of scenarios.entries()) {
      const seed = opts.seed ?? scenario.config.seed ?? randomSeed();
      const target = await targets[i]!.create(seed);
      plans.push(
        await dryRunOnTarget(target, {
          kind: 'scenario',
          scenario,
          seed,
          ...(opts.timeScale !== undefined ? { timeScale: opts.timeScale } : {}),
        }),
      );
    }
    emitDryRun(ctx, plans, opts);
    return;
  }
  await whileRegistered(ctx, 'scenario run', () => runAll(scenarios, targets, opts, ctx, mode));
}

async function runAll(
  scenarios: Scenario[],
  targets: TargetChoice[],
  opts: ScenarioRunOptions,
  ctx: CliContext,
  mode: OutputMode,
): Promise<void> {
  const reports: ScenarioReport[] = [];
  let failure: unknown;
  await runWithOutput(ctx, opts, mode, async (onEvent, sinks, runTargets) => {
    for (const [i, scenario] of scenarios.entries()) {
      if (ctx.signal.aborted) break;
      const seed = opts.seed ?? scenario.config.seed ?? randomSeed();
      try {
        const target = await runTargets.create(targets[i]!, seed);
        reports.push(
          await runScenarioOnTarget(target, scenario, {
            seed,
            signal: ctx.signal,
            env: ctx.env,
            onEvent,
            ...sinks,
            ...(opts.minScore !== undefined ? { minScore: opts.minScore } : {}),
            ...(opts.gate !== undefined ? { gate: opts.gate } : {}),
            ...(opts.timeScale !== undefined ? { timeScale: opts.timeScale } : {}),
          }),
        );
      } catch (err) {
        // the reports so far are still printed and written; the error decides the exit code
        failure = await locatedInFile(err, scenario.file, ctx.cwd);
        break;
      }
    }
  });
  if (isGitHubActions(ctx.env))
    reportToGitHub(
      ctx,
      reports.map((report) => ({ kind: 'scenario', report })),
      mode.kind === 'json',
    );
  emitDocument(
    ctx,
    mode,
    scenarioDocument(reports),
    () => renderScenarioTables(reports, terminalWidth(ctx.stdout)),
    () => scenarioJUnit(reports),
    {
      report: opts.report,
      junit: opts.junit,
      ...(await metricsOutput(opts.metricsFile, () => reports.map((report) => ({ kind: 'scenario', report })))),
    },
  );
  if (failure) throw failure;
  throwForOutcomes(reports, opts.report);
  // interrupted between two scenarios (or before the first): the ones not run make this a partial report
  if (ctx.signal.aborted)
    throw new CancelledError(
      `interrupted; ${scenarios.length - reports.length} scenario(s) not run${opts.report ? `; partial report written to ${opts.report}` : ''}`,
    );
}

/** a refusal naming scenario paths (an unknown agent, node or edge), told with the file's line:column */
async function locatedInFile(err: unknown, file: string | undefined, cwd: string): Promise<unknown> {
  if (!isArenaError(err) || err.code !== 'unknown_target' || file === undefined || !Array.isArray(err.details))
    return err;
  const text = await readFile(resolve(cwd, file), 'utf8').catch(() => undefined);
  if (text === undefined) return err;
  const source = parseYamlSource(text);
  const lines = (err.details as ScenarioProblem[]).map((p) => `  ${formatProblem(source.locate(p), file)}`);
  return new UsageError(`${err.message.split('\n')[0]}\n${lines.join('\n')}`, { code: err.code, details: err.details });
}

/** validates every file before anything runs: all problems at once, exit 2 */
async function loadAll(files: string[], ctx: CliContext): Promise<Scenario[]> {
  const results = await validateFiles(files, ctx.cwd);
  const invalid = results.filter((r) => !r.valid);
  if (invalid.length > 0) {
    for (const r of invalid) for (const p of r.errors) ctx.stderr.write(`${formatProblem(p, r.file)}\n`);
    throw new UsageError(`${invalid.length} of ${results.length} scenario file(s) invalid; nothing was run`, {
      code: 'invalid_scenario',
    });
  }
  return Promise.all(
    files.map(async (f) => {
      const r = await checkScenarioFile(resolve(ctx.cwd, f));
      r.scenario!.file = f;
      return r.scenario!;
    }),
  );
}
