import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { examples } from './options.js';
import { registerScenarioValidateCommand } from './scenario-validate.js';
import { registerScenarioRunCommand } from './scenario-run.js';
import { registerScenarioListCommand } from './scenario-list.js';

/** `arena scenario validate|run|list` */
export function registerScenarioCommand(program: Command, ctx: CliContext): void {
  const scenario = program.command('scenario').description('Validate, run and list scenario files (YAML)');
  examples(scenario, [
    'arena scenario validate scenarios/*.yaml',
    'arena scenario run scenarios/leader-failover.yaml',
    'arena scenario list',
  ]);
  registerScenarioValidateCommand(scenario, ctx);
  registerScenarioRunCommand(scenario, ctx);
  registerScenarioListCommand(scenario, ctx);
}
