import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { examples } from './options.js';
import { type CommandEntry, registerTable } from './lazy.js';

/** `run` declares the run plugins' options (store, serve): `validate` should not load them */
const SUBCOMMANDS: readonly CommandEntry[] = [
  { name: 'validate', load: async () => (await import('./scenario-validate.js')).registerScenarioValidateCommand },
  { name: 'run', load: async () => (await import('./scenario-run.js')).registerScenarioRunCommand },
  { name: 'list', load: async () => (await import('./scenario-list.js')).registerScenarioListCommand },
];

/** `arena scenario validate|run|list` */
export async function registerScenarioCommand(
  program: Command,
  ctx: CliContext,
  argv?: readonly string[],
): Promise<void> {
  const scenario = program.command('scenario').description('Validate, run and list scenario files (YAML)');
  examples(scenario, [
    'arena scenario validate scenarios/*.yaml',
    'arena scenario run scenarios/leader-failover.yaml',
    'arena scenario list',
  ]);
  await registerTable(scenario, ctx, SUBCOMMANDS, argv);
}
