/** Option parsers and option groups shared by the run commands. Light: no engine imports. */
import { InvalidArgumentError, Option, type Command } from 'commander';
import { durationProblem } from '../../shared/duration.js';

export function parseSeed(value: string): number {
  if (!/^\d+$/.test(value.trim()) || Number(value) > 2 ** 32 - 1)
    throw new InvalidArgumentError('must be a non-negative integer below 2^32');
  return Number(value);
}

export function parseScore(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0 || n > 100)
    throw new InvalidArgumentError('must be a number from 0 to 100');
  return n;
}

export function parsePositive(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n <= 0) throw new InvalidArgumentError('must be a positive number');
  return n;
}

export function parseDurationOption(value: string): string {
  const problem = durationProblem(value);
  if (problem !== undefined) throw new InvalidArgumentError(problem);
  return value;
}

/** what --min-score compares (DESIGN §5): the score, or the lower bound of its 95% interval */
export function gateOption(): Option {
  return new Option(
    '--gate <what>',
    'what --min-score compares: "score", or "lower" (the lower bound of the score\'s 95% interval, so a run a point from the gate does not pass by chance)',
  )
    .choices(['score', 'lower'])
    .default('score');
}

/** --json, --junit, --report, --no-tui, --no-color */
export function addOutputOptions(command: Command): Command {
  return command
    .option('--json', 'print one JSON document on stdout (schema_version 1) and nothing else there')
    .option('--junit <file>', 'write a JUnit XML report to FILE')
    .option('--report <file>', 'write the full JSON report to FILE (also on failure and interrupt)')
    .addOption(new Option('--no-tui', 'no live view: one plain line per event on stderr'))
    .addOption(new Option('--no-color', 'no colours (NO_COLOR is honoured too)'));
}

/** the examples block appended to a command's help */
export function examples(command: Command, lines: string[]): Command {
  return command.addHelpText('after', `\nExamples:\n${lines.map((l) => `  $ ${l}`).join('\n')}\n`);
}

/** --metrics-file, on the commands whose run ends with figures (scenario run, survival) */
export function addMetricsFileOption(command: Command): Command {
  return command.option(
    '--metrics-file <file>',
    "write the final figures in the Prometheus text format to FILE (atomically; for node_exporter's textfile collector)",
  );
}

export interface OutputOptionValues {
  json?: boolean;
  metricsFile?: string;
  junit?: string;
  report?: string;
  tui?: boolean;
  color?: boolean;
}
