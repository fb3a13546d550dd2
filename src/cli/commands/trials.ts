import { InvalidArgumentError, type Command } from 'commander';
import type { CliContext } from '../context.js';
import { examples, parseDurationOption, parsePositive, parseSeed } from './options.js';

/** "1,2,4,8" → [1, 2, 4, 8] */
function parseKs(value: string): number[] {
  const ks = value.split(',').map((s) => Number(s.trim()));
  if (ks.length === 0 || ks.some((k) => !Number.isInteger(k) || k < 1))
    throw new InvalidArgumentError('expected positive integers separated by commas, e.g. 1,2,4,8');
  return [...new Set(ks)].sort((a, b) => a - b);
}

function parseIntensities(value: string): number[] {
  const list = value.split(',').map((s) => Number(s.trim()));
  if (list.some((x) => value.trim() === '' || !Number.isFinite(x) || x < 0 || x > 1))
    throw new InvalidArgumentError('expected probabilities from 0 to 1 separated by commas, e.g. 0,0.1,0.3');
  return [...new Set(list)].sort((a, b) => a - b);
}

/** "4:0.9" (repeatable): pass^4 at least 0.9 */
function parseMinPassK(value: string, previous: Array<{ k: number; value: number }> = []) {
  const m = /^\s*(\d+)\s*:\s*([0-9.]+)\s*$/.exec(value);
  const k = m ? Number(m[1]) : Number.NaN;
  const min = m ? Number(m[2]) : Number.NaN;
  if (!Number.isInteger(k) || k < 1 || !(min >= 0 && min <= 1))
    throw new InvalidArgumentError('expected K:VALUE, e.g. 4:0.9 (pass^4 at least 0.9)');
  return [...previous, { k, value: min }];
}

function parseTrials(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || n < 1) throw new InvalidArgumentError('must be a positive integer');
  return n;
}

export function registerTrialsCommand(program: Command, ctx: CliContext): void {
  const command = program
    .command('trials')
    .description(
      "Run the target's tasks N times under the scenario's faults and N times clean: pass^k with 95% intervals, behaviour and cost per task (DESIGN §14); exit 0 passed, 1 a gate failed, 2 invalid input, 3 runtime error, 130 interrupted",
    )
    .option('--target <file>', 'the system whose tasks: run (default: the embedded runtime and its workflow task)')
    .option('--scenario <file>', 'the faults that act during the faulted trials (without it: clean trials only)')
    .option('--trials <n>', 'trials per task and arm', parseTrials, 8)
    .option('--k <list>', 'the k of pass^k, comma-separated (default 1,2,4,8 up to --trials)', parseKs)
    .option(
      '--intensity <list>',
      "repeat the faulted trials with the scenario's llm_failure/tool_fault at these per-call probabilities: the reliability surface",
      parseIntensities,
    )
    .option('--seed <n>', 'fixes the order of trials and every random choice (printed and reported)', parseSeed)
    .option(
      '--min-pass-k <k:value>',
      'exit 1 when a task’s pass^k under faults is below VALUE (repeatable)',
      parseMinPassK,
    )
    .option(
      '--max-cost-ratio <r>',
      'exit 1 when a task’s cost under faults is over R times its clean cost (usd when priced, else tokens)',
      parsePositive,
    )
    .option(
      '--recovery-deadline <duration>',
      'how long the target may take to be healthy after a faulted block (default 10s)',
      parseDurationOption,
    )
    .option(
      '--stop-when <conditions>',
      'end the trials early (faults reverted, exit 1) when a condition holds while a faulted block runs: the keys of config.stop_when, inline YAML/JSON or @FILE',
    )
    .option(
      '--dry-run',
      'resolve the target and its tasks, print the blocks in their seeded order and the faults each faulted block applies, inject nothing and send no task (exit 0, or 2 when something cannot be resolved)',
    )
    .option(
      '--store <memory|path|url>',
      'record the trials as they run (plan, each trial, the report) into this event store, a SQLite file or postgres:// URL (or set ARENA_STORE): arena serve on the same store follows them in its web console',
    )
    .option(
      '--workers <url>',
      'run each round of trials on arena worker processes taking runs from this postgres:// database (docs/guides/many-machines.md)',
    )
    .option('--json', 'print one JSON document on stdout (schema_version 1) and nothing else there')
    .option('--junit <file>', 'write a JUnit XML report to FILE: one case per task')
    .option('--report <file>', 'write the full JSON report to FILE (also on failure and interrupt)')
    .option('--no-color', 'no colours (NO_COLOR is honoured too)');
  examples(command, [
    'arena trials --target examples/llm-agent/target.yaml --scenario examples/llm-agent/scenarios/llm-outage.yaml --trials 8',
    'arena trials --target my-agents.yaml --scenario flaky-llm.yaml --trials 16 --k 1,4,8 --min-pass-k 4:0.9 --junit trials.xml',
    'arena trials --target my-agents.yaml --scenario quiet.yaml --intensity 0,0.1,0.3 --json',
    'arena trials --trials 4 --k 1,2,4',
    'arena trials --target my-agents.yaml --scenario flaky-llm.yaml --seed 7 --dry-run',
    'arena trials --target my-agents.yaml --scenario flaky-llm.yaml --trials 16 --workers postgres://arena@db.internal/arena',
  ]);
  command.action(async (opts) => {
    const { trialsCommand } = await import('../run/run-trials.js');
    await trialsCommand(opts, ctx);
  });
}
