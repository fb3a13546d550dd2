import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { examples } from './options.js';

export function registerScenarioValidateCommand(scenario: Command, ctx: CliContext): void {
  const command = scenario
    .command('validate')
    .description(
      'Check scenario files; every problem printed as file:line:col path message (exit 2 when any is invalid)',
    )
    .argument('<file...>', 'scenario files (YAML or JSON)')
    .option('--json', 'print {"schema_version":1,"files":[{file,valid,errors}]} on stdout');
  examples(command, [
    'arena scenario validate scenarios/leader-failover.yaml',
    'arena scenario validate scenarios/*.yaml',
    'arena scenario validate my.yaml --json',
  ]);
  command.action(async (files: string[], opts: { json?: boolean }) => {
    const { validateCommand } = await import('../run/validate-scenarios.js');
    await validateCommand(files, opts, ctx);
  });
}
