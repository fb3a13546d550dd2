import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { examples } from './options.js';

export function registerScenarioListCommand(scenario: Command, ctx: CliContext): void {
  const command = scenario
    .command('list')
    .description('Name, description, tags and action count of every scenario file in a directory')
    .argument('[dir]', 'directory to list', 'scenarios')
    .option('--json', 'print {"schema_version":1,"scenarios":[…]} on stdout');
  examples(command, ['arena scenario list', 'arena scenario list test/fixtures/scenarios --json']);
  command.action(async (dir: string, opts: { json?: boolean }) => {
    const { listCommand } = await import('../run/list-scenarios.js');
    await listCommand(dir, opts, ctx);
  });
}
