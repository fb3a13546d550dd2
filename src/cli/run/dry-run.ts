/** Prints the plans of a `--dry-run` and turns what could not be resolved into exit 2. */
import type { DryRunPlan } from '../../arena/dry-run/types.js';
import { UsageError } from '../../shared/errors.js';
import type { CliContext } from '../context.js';
import { dryRunDocument, renderDryRun } from '../output/dry-run.js';
import { terminalWidth } from '../output/fit.js';

export function emitDryRun(ctx: CliContext, plans: DryRunPlan[], json: boolean | undefined): void {
  if (json) ctx.stdout.write(`${JSON.stringify(dryRunDocument(plans), null, 2)}\n`);
  else ctx.stdout.write(renderDryRun(plans, terminalWidth(ctx.stdout)));
  const problems = plans.flatMap((p) => p.problems.map((problem) => `${p.name}: ${problem}`));
  if (problems.length > 0)
    throw new UsageError(
      `dry run: ${problems.length} thing(s) cannot be resolved; a real run would refuse or fail:\n  ${problems.join('\n  ')}`,
      'dry_run_unresolved',
      { details: problems },
    );
}
