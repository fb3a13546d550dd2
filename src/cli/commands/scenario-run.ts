import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import {
  addMetricsFileOption,
  addOutputOptions,
  examples,
  gateOption,
  parsePositive,
  parseScore,
  parseSeed,
} from './options.js';
import { addPluginOptions } from '../run-plugins.js';

export function registerScenarioRunCommand(scenario: Command, ctx: CliContext): void {
  const command = scenario
    .command('run')
    .description(
      'Run scenarios, each against a fresh target (the embedded runtime unless --target or config.target): measured score and verification; exit 0 passed, 1 a gate failed, 2 invalid input, 3 runtime error, 130 interrupted',
    )
    .argument('<file...>', 'scenario files (YAML or JSON)')
    .option('--seed <n>', 'fixes every random choice (overrides config.seed)', parseSeed)
    .option('--min-score <n>', 'exit 1 when a score is below N (overrides expect.min_score)', parseScore)
    .addOption(gateOption())
    .option(
      '--strategy <file>',
      'recovery strategy YAML for the embedded runtime (default: strategies/default.yaml values)',
    )
    .option(
      '--target <file>',
      'attack the system this target file describes (kind embedded, process or remote); wins over config.target',
    )
    .option(
      '--time-scale <factor>',
      'multiply every timing the scenario states (0.1 = ten times faster); recovery deadlines are not scaled',
      parsePositive,
    )
    .option(
      '--dry-run',
      'resolve the target, agents, pids, proxies and leader, print the timeline with every fault resolved, inject nothing (exit 0, or 2 when something cannot be resolved)',
    );
  addOutputOptions(command);
  addMetricsFileOption(command);
  addPluginOptions(command);
  examples(command, [
    'arena scenario run scenarios/leader-failover.yaml',
    'arena scenario run scenarios/*.yaml --min-score 85 --junit out.xml --json',
    'arena scenario run scenarios/leader-failover.yaml --min-score 80 --gate lower',
    'arena scenario run scenarios/llm-outage.yaml --strategy strategies/recovery-off.yaml',
    'arena scenario run scenarios/dag-damage.yaml --seed 42 --time-scale 0.5 --report run.json',
    'arena scenario run scenarios/leader-failover.yaml --target my-agents.yaml',
    'arena scenario run scenarios/leader-failover.yaml --target my-agents.yaml --dry-run',
  ]);
  command.action(async (files: string[], opts) => {
    const { scenarioRunCommand } = await import('../run/run-scenarios.js');
    await scenarioRunCommand(files, opts, ctx);
  });
}
