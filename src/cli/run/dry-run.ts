/** Prints the plans of a `--dry-run` and turns what could not be resolved into exit 2. */
import type { DryRunPlan } from '../../arena/dry-run/types.js';
import { UsageError } from '../../shared/errors.js';
import type { CliContext } from '../context.js';
import { dryRunDocument, renderDryRun } from '../output/dry-run.js';
import { terminalWidth } from '../output/fit.js';

/** the flags that write what a run produced: a dry run produces none of it, and says so */
const RUN_OUTPUTS = {
  report: '--report',
  junit: '--junit',
  metricsFile: '--metrics-file',
  saveScenario: '--save-scenario',
  serve: '--serve',
  store: '--store',
} as const;

export function emitDryRun(
  ctx: CliContext,
  plans: DryRunPlan[],
  opts: { json?: boolean | undefined } & Partial<Record<keyof typeof RUN_OUTPUTS, unknown>>,
): void {
  const unused = (Object.keys(RUN_OUTPUTS) as Array<keyof typeof RUN_OUTPUTS>).filter(
    (k) => opts[k] !== undefined && opts[k] !== false,
  );
  if (unused.length > 0)
    ctx.stderr.write(
      `dry run: nothing runs, so ${unused.map((k) => RUN_OUTPUTS[k]).join(', ')} ${unused.length === 1 ? 'is' : 'are'} not used\n`,
    );
  const json = opts.json;
  if (json) ctx.stdout.write(`${JSON.stringify(dryRunDocument(plans), null, 2)}\n`);
  else ctx.stdout.write(renderDryRun(plans, terminalWidth(ctx.stdout)));
  const problems = plans.flatMap((p) => p.problems.map((problem) => `${p.name}: ${problem}`));
  if (problems.length > 0)
    throw new UsageError(
      `dry run: ${problems.length} thing(s) cannot be resolved; a real run would refuse or fail:\n  ${problems.join('\n  ')}`,
      { code: 'dry_run_unresolved', details: problems },
    );
}
