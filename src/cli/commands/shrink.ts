import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { Option } from 'commander';
import { examples, parseDurationOption, parsePositive, parseScore, parseSeed } from './options.js';

export function registerShrinkCommand(program: Command, ctx: CliContext): void {
  const command = program
    .command('shrink')
    .description(
      'Shrink a failing scenario or survival report to a smallest scenario that still fails the same way (DESIGN §15); exit 0 written, 1 the failure did not reproduce, 2 invalid input or a passing report, 3 runtime error',
    )
    .argument('[report]', 'a failing report written by --json or --report (scenario or survival)')
    .option('--survival', 'no report: run `arena survival` with --seed and the flags below, then shrink its failure')
    .option('--target <file>', 'attack the system this target file describes (default: the embedded runtime)')
    .option(
      '--strategy <file>',
      'recovery strategy YAML for the embedded runtime (default: the one recorded in the report)',
    )
    .option('--out <file>', 'where to write the minimal scenario YAML', 'shrunk.yaml')
    .option(
      '--seed <n>',
      'run every candidate with this seed (default: the report’s); with --survival, its seed',
      parseSeed,
    )
    .option('--duration <duration>', 'with --survival: how long chaos lasts (default 60s)', parseDurationOption)
    .option('--interval <duration>', 'with --survival: time between two faults (default 2s)', parseDurationOption)
    .option('--actions <kinds>', 'with --survival: comma-separated fault kinds to draw from')
    .option('--warmup <duration>', 'with --survival: steady state before the first fault', parseDurationOption)
    .option('--cooldown <duration>', 'with --survival: recovery watched after the last fault', parseDurationOption)
    .option('--recovery-deadline <duration>', 'with --survival: how long a fault has to recover', parseDurationOption)
    .option(
      '--min-score <n>',
      'with --survival: the gate the survival ran with (a failure shrink can keep)',
      parseScore,
    )
    .option('--time-scale <factor>', 'multiply every timing of each candidate run (0.5 = twice as fast)', parsePositive)
    .option('--max-runs <n>', 'most judged runs per candidate in the sequential test (default 12)', parsePositive)
    .addOption(
      new Option(
        '--search <method>',
        'subset search: quickxplain (divide and conquer, the default) or greedy (one fault at a time, for comparison)',
      ).choices(['quickxplain', 'greedy']),
    )
    .option(
      '--workers <url>',
      'run each candidate run on arena worker processes taking runs from this postgres:// database (docs/guides/many-machines.md)',
    )
    .option(
      '--parallel <n>',
      'with --workers: runs of one candidate started at once (default 2; the sequential test uses them in order)',
      parsePositive,
    )
    .option('--json', 'print one JSON document on stdout (progress stays on stderr)')
    .option(
      '--serve [port]',
      'serve the progress as events (shrink.progress: candidate tried, current size, runs spent) on http://127.0.0.1:PORT/arena/stream while it runs (default 8080; 0 = a free port; ARENA_API_KEY is honoured)',
    )
    .option(
      '--store <memory|path|url>',
      'record the progress as it goes (candidate tried, current size, runs spent, then the minimal faults and certificate) into this event store, a SQLite file or postgres:// URL (or set ARENA_STORE): arena serve on the same store follows it in its web console',
    )
    .option(
      '--dry-run',
      'resolve the target and print the timeline of the first run (the whole failing schedule; later candidates are subsets of it), inject nothing',
    );
  examples(command, [
    'arena survival --seed 7 --report run.json; arena shrink run.json --out min.yaml',
    'arena shrink report.json --strategy strategies/recovery-off.yaml --json',
    'arena shrink --survival --seed 7 --duration 30s --interval 1s --strategy strategies/recovery-off.yaml',
    'arena shrink report.json --target my-agents.yaml --out regression.yaml && arena scenario run regression.yaml',
    'arena shrink report.json --workers postgres://arena@db.internal/arena',
    'arena shrink report.json --store .arena/arena.db',
  ]);
  command.action(async (file: string | undefined, opts) => {
    const { shrinkCommand } = await import('../run/run-shrink.js');
    await shrinkCommand(file, opts, ctx);
  });
}
