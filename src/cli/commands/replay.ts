import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { addOutputOptions, examples, gateOption, parseScore } from './options.js';
import { addPluginOptions } from '../run-plugins.js';

export function registerReplayCommand(program: Command, ctx: CliContext): void {
  const command = program
    .command('replay')
    .description('Run the exact action timeline recorded in a report (--json / --report output) again')
    .argument('<report>', 'a report written by --json or --report (scenario or survival)')
    .option('--scenario <name>', 'which scenario to replay when the report holds several')
    .option('--strategy <file>', 'recovery strategy YAML (default: the one recorded in the report)')
    .option('--min-score <n>', 'exit 1 when the score is below N', parseScore)
    .addOption(gateOption());
  addOutputOptions(command);
  addPluginOptions(command);
  examples(command, [
    'arena survival --seed 7 --report run.json && arena replay run.json',
    'arena replay run.json --strategy strategies/recovery-off.yaml --json',
    'arena replay ci-report.json --scenario leader-failover --min-score 80',
  ]);
  command.action(async (file: string, opts) => {
    const { replayCommand } = await import('../run/run-replay.js');
    await replayCommand(file, opts, ctx);
  });
}
