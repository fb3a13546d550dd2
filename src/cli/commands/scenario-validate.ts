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
    .option('--json', 'print {"schema_version":1,"files":[{file,valid,errors}]} on stdout')
    .option(
      '--target <file>',
      'also check the agents, nodes and edges named against this target (embedded: known now)',
    );
  examples(command, [
    'arena scenario validate scenarios/leader-failover.yaml',
    'arena scenario validate scenarios/*.yaml',
    'arena scenario validate my.yaml --json',
    'arena scenario validate my.yaml --target embedded.yaml',
  ]);
  command.action(async (files: string[], opts: { json?: boolean; target?: string }) => {
    const { validateCommand } = await import('../run/validate-scenarios.js');
    await validateCommand(files, opts, ctx);
  });
}
