/**
 * `arena replay REPORT.json`: the exact recorded action timeline (same kinds,
 * targets, parameters, planned times) against a fresh embedded target built
 * with the recorded seed and strategy. Imported lazily by the command.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { createEmbeddedTarget } from '../../targets/embedded/index.js';
import { loadStrategyFile } from '../../runtime/strategy.js';
import { replayPlanFromReport, runSurvivalOnTarget, scenarioFromPlan } from '../../arena/survival/index.js';
import { runScenarioOnTarget } from '../../arena/scenario/index.js';
import { UsageError, errorMessage } from '../../shared/errors.js';
import type { CliContext } from '../context.js';
import type { OutputOptionValues } from '../commands/options.js';
import { applyColor, resolveOutputMode } from '../output/mode.js';
import { emitDocument } from '../output/emit.js';
import { scenarioDocument, survivalDocument } from '../output/json.js';
import { renderScenarioTables, renderSurvivalTable } from '../output/table.js';
import { terminalWidth } from '../output/fit.js';
import { scenarioJUnit, survivalJUnit } from '../output/junit.js';
import { runWithOutput } from './with-output.js';
import type { TargetChoice } from './targets.js';
import { runTitle } from '../view/view-state.js';
import type { GateOn } from '../../arena/score.js';
import { throwForOutcomes } from './outcome.js';

export interface ReplayCommandOptions extends OutputOptionValues {
  scenario?: string;
  strategy?: string;
  minScore?: number;
  gate?: GateOn;
}

export async function replayCommand(file: string, opts: ReplayCommandOptions, ctx: CliContext): Promise<void> {
  const mode = resolveOutputMode(opts, ctx);
  applyColor(mode);
  let text: string;
  try {
    text = await readFile(resolve(ctx.cwd, file), 'utf8');
  } catch (err) {
    throw new UsageError(`cannot read report ${file}: ${errorMessage(err)}`, { code: 'invalid_report' });
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new UsageError(`${file}: not valid JSON: ${errorMessage(err)}`, { code: 'invalid_report' });
  }
  const plan = replayPlanFromReport(doc, file, opts.scenario);
  const strategy = opts.strategy ? await loadStrategyFile(resolve(ctx.cwd, opts.strategy)) : plan.strategy;
  const embedded: TargetChoice = {
    name: 'embedded',
    kind: 'embedded',
    create: async (seed) => createEmbeddedTarget({ strategy, seed }),
  };
  if (mode.kind !== 'tty')
    ctx.stderr.write(
      `replay: ${plan.timeline.length} action(s) of ${runTitle(plan.kind, plan.name)} (seed ${plan.seed})\n`,
    );
  const replayOf = {
    kind: plan.kind,
    name: plan.name,
    seed: plan.seed,
    ...(plan.started_at ? { started_at: plan.started_at } : {}),
  };
  const scenario = scenarioFromPlan(plan);
  if (scenario) {
    // a scenario report replays as that scenario: labels, expectations, window and gate
    const replayed = await runWithOutput(ctx, opts, mode, async (onEvent, sinks, targets) =>
      runScenarioOnTarget(await targets.create(embedded, plan.seed), scenario, {
        seed: plan.seed,
        signal: ctx.signal,
        onEvent,
        ...sinks,
        ...(opts.minScore !== undefined ? { minScore: opts.minScore } : {}),
        ...(opts.gate !== undefined ? { gate: opts.gate } : {}),
      }),
    );
    replayed.replay_of = replayOf;
    emitDocument(
      ctx,
      mode,
      scenarioDocument([replayed]),
      () => renderScenarioTables([replayed], terminalWidth(ctx.stdout)),
      () => scenarioJUnit([replayed]),
      { report: opts.report, junit: opts.junit },
    );
    throwForOutcomes([replayed], opts.report);
    return;
  }
  const report = await runWithOutput(ctx, opts, mode, async (onEvent, sinks, targets) =>
    runSurvivalOnTarget(await targets.create(embedded, plan.seed), {
      duration: 0,
      interval: 0,
      seed: plan.seed,
      timeline: plan.timeline,
      signal: ctx.signal,
      onEvent,
      ...sinks,
      ...(opts.minScore !== undefined ? { minScore: opts.minScore } : {}),
      ...(opts.gate !== undefined ? { gate: opts.gate } : {}),
    }),
  );
  report.replay_of = replayOf;
  emitDocument(
    ctx,
    mode,
    survivalDocument(report),
    () => renderSurvivalTable(report, terminalWidth(ctx.stdout)),
    () => survivalJUnit(report),
    { report: opts.report, junit: opts.junit },
  );
  throwForOutcomes([{ name: `replay of ${plan.name}`, ...report }], opts.report);
}
