import { Option, type Command } from 'commander';
import { ACTION_TYPES } from '../../arena/action.js';
import { offerValues } from '../completion/tree.js';
import type { CliContext } from '../context.js';
import {
  addMetricsFileOption,
  addOutputOptions,
  examples,
  gateOption,
  parseDurationOption,
  parseScore,
  parseSeed,
} from './options.js';
import { addPluginOptions } from '../run-plugins.js';

export function registerSurvivalCommand(program: Command, ctx: CliContext): void {
  const command = program
    .command('survival')
    .description(
      'Random faults at a fixed interval against a fresh target (the embedded runtime unless --target); measured resilience score',
    )
    .option('--duration <duration>', 'how long chaos lasts', parseDurationOption, '60s')
    .option('--interval <duration>', 'time between two faults', parseDurationOption, '2s')
    .addOption(
      offerValues(
        new Option('--actions <kinds>', 'comma-separated fault kinds to draw from (default: all but resume_agent)'),
        ACTION_TYPES,
        { list: true },
      ),
    )
    .option('--seed <n>', 'fixes every random choice (printed and reported so the run can be replayed)', parseSeed)
    .option(
      '--strategy <file>',
      'recovery strategy YAML for the embedded runtime (default: strategies/default.yaml values)',
    )
    .option('--target <file>', 'attack the system this target file describes (kind embedded, process or remote)')
    .option('--min-score <n>', 'exit 1 when the score is below N', parseScore)
    .addOption(gateOption())
    .option('--warmup <duration>', 'steady state measured before the first fault', parseDurationOption)
    .option(
      '--cooldown <duration>',
      'recovery watched after the last fault (default 2 × interval, at most 3s)',
      parseDurationOption,
    )
    .option(
      '--recovery-deadline <duration>',
      'a fault not healthy again this long after injection counts as not recovered (default 10s)',
      parseDurationOption,
    )
    .option(
      '--stop-when <conditions>',
      'end the run early (faults reverted, exit 1) when a condition holds: the keys of config.stop_when, inline YAML/JSON or @FILE',
    )
    .option('--save-scenario <file>', 'write the run as a scenario YAML that replays it');
  addOutputOptions(command);
  addMetricsFileOption(command);
  addPluginOptions(command);
  examples(command, [
    'arena survival --duration 30s --interval 1s',
    'arena survival --actions kill_agent,slow_agent --seed 42 --save-scenario storm.yaml',
    'arena survival --duration 2m --min-score 80 --json --junit survival.xml',
    'arena survival --strategy strategies/recovery-off.yaml --report off.json',
    'arena survival --target my-agents.yaml --duration 1m --interval 3s',
    "arena survival --target my-agents.yaml --stop-when '{availability_below: {value: 80, window: 5s}}'",
  ]);
  command.action(async (opts) => {
    const { survivalCommand } = await import('../run/run-survival.js');
    await survivalCommand(opts, ctx);
  });
}
