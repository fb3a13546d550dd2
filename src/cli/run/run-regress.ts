/**
 * What `arena regress` does once its options are parsed (loaded lazily by the command, so other
 * commands never pay for the statistics and the tables): the rules are in arena/regression
 * (planRegress, gateFailure) and the runs in bootstrap/regress; here the verdict is printed, the
 * JUnit file written and the outcome mapped to an error for the exit code.
 */
import type { CliContext } from '../context.js';
import { applyColor, resolveOutputMode } from '../output/mode.js';
import { withNonFiniteExplained } from '../output/json.js';
import { regressionJUnit } from '../output/junit.js';
import { tryWrite } from '../output/emit.js';
import { isGitHubActions, reportRegressToGitHub } from '../output/github.js';
import { renderRegressionTable } from '../output/regress-table.js';
import { terminalWidth } from '../output/fit.js';
import { CancelledError, GateFailedError, UsageError } from '../../shared/errors.js';
import { planRegress, type RegressRequest } from '../../arena/regression/request.js';
import { formatP, gateFailure, type RegressionVerdict } from '../../arena/regression/verdict.js';
import type { RegressionResult } from '../../arena/regression/tester.js';
import type { RegressionEvent } from '../../arena/regression/types.js';
import { runRegressPlan } from '../../bootstrap/regress.js';
import { whileRegistered } from './registered.js';

export interface RegressOptions extends RegressRequest {
  json?: boolean;
  junit?: string;
  failOnNoImprovement?: boolean;
  color?: boolean;
}

export async function runRegress(options: RegressOptions, ctx: CliContext): Promise<void> {
  const mode = resolveOutputMode({ json: options.json, color: options.color, tui: false }, ctx);
  applyColor(mode);
  const print = (v: RegressionVerdict) =>
    ctx.stdout.write(
      mode.kind === 'json'
        ? `${JSON.stringify(withNonFiniteExplained({ schema_version: 1, regression: v }), null, 2)}\n`
        : renderRegressionTable(v, terminalWidth(ctx.stdout)),
    );
  const plan = planRegress(options);
  let verdict: RegressionVerdict;
  try {
    const run = () =>
      runRegressPlan(plan, {
        cwd: ctx.cwd,
        env: ctx.env,
        signal: ctx.signal,
        onNotice: (line) => ctx.stderr.write(`${line}\n`),
        onEvent: (event) => ctx.stderr.write(progressLine(event)),
      });
    // runs that inject faults on this machine register, so arena stop finds them; recorded scores and
    // runs handed to workers elsewhere do not
    verdict =
      plan.kind === 'runs' && plan.workers === undefined ? await whileRegistered(ctx, 'regress', run) : await run();
  } catch (err) {
    // Ctrl-C: show what the finished pairs say, clearly marked as no verdict, then exit 130
    const partial =
      err instanceof CancelledError ? (err.details as { partial?: RegressionResult } | undefined)?.partial : undefined;
    if (partial) print({ mode: 'strategies', ...partial });
    throw err;
  }

  const failOnNoImprovement = options.failOnNoImprovement === true;
  const problems: string[] = [];
  if (options.junit)
    tryWrite(ctx, options.junit, regressionJUnit(verdict, failOnNoImprovement), 'JUnit report', problems);
  print(verdict);
  const gate = gateFailure(verdict, failOnNoImprovement);
  if (isGitHubActions(ctx.env)) reportRegressToGitHub(ctx, verdict, gate, mode.kind === 'json');
  if (problems.length > 0) throw new UsageError(problems.join('; '), { code: 'output_not_writable' });
  if (gate) throw new GateFailedError(gate, { code: 'regression' });
}

function progressLine(event: RegressionEvent): string {
  if (event.type === 'run')
    return `  ${event.arm.padEnd(9)} run ${String(event.run + 1).padStart(3)} (seed ${event.seed}): ${event.score.toFixed(1)}\n`;
  const l = event.look;
  return `  look ${l.index + 1} at ${l.n} runs per arm: p = ${formatP(l.p_value)}, boundary p ≤ ${formatP(l.nominal_p)} → ${l.decision}\n`;
}
