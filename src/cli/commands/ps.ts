/** `arena ps` and `arena stop` (DESIGN §16): the runs active on this machine, and the emergency stop. */
import type { Command } from 'commander';
import { UsageError } from '../../shared/errors.js';
import type { CliContext } from '../context.js';
import { examples, parseDurationOption } from './options.js';

export function registerPsCommand(program: Command, ctx: CliContext): void {
  const command = program
    .command('ps')
    .description('List the runs active on this machine (scenario run, survival, serve …), from the run directory')
    .option('--json', 'print one JSON document on stdout');
  examples(command, ['arena ps', 'arena ps --json | jq -r ".runs[].run_id"']);
  command.action(async (opts: { json?: boolean }) => {
    const { psCommand } = await import('../run/run-ps.js');
    psCommand(opts, ctx);
  });
}

export function registerStopCommand(program: Command, ctx: CliContext): void {
  const command = program
    .command('stop')
    .description(
      'Emergency stop: end the given run (or --all) at once, every fault reverted and its report written (status stopped), and wait until it has; exit 0 stopped, 2 unknown run, 3 a run did not stop in time',
    )
    .argument('[run-id]', 'a run id from arena ps')
    .option('--all', 'every active run on this machine')
    .option('--timeout <duration>', 'how long to wait for each run to end', parseDurationOption, '30s')
    .option('--json', 'print one JSON document on stdout');
  examples(command, ['arena stop --all', 'arena stop survival-3f9a1c2e', 'arena stop --all --json']);
  command.action(async (runId: string | undefined, opts: { all?: boolean; timeout: string; json?: boolean }) => {
    if ((runId === undefined) === (opts.all !== true))
      throw new UsageError('arena stop: give one run id or --all, not both and not neither', {
        code: 'invalid_stop',
        hint: 'arena ps lists the active runs',
      });
    const { stopCommand } = await import('../run/run-ps.js');
    await stopCommand(runId, opts, ctx);
  });
}
