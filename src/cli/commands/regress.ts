/**
 * `arena regress`: is the candidate strategy more resilient than the baseline,
 * or is it noise? Runs both on the same seeds (or reads recorded scores) and
 * prints the statistical verdict. Exit 1 when the candidate is significantly
 * worse (or, with --fail-on-no-improvement, not significantly better).
 */
import { Option, type Command } from 'commander';
import { ACTION_TYPES } from '../../arena/action.js';
import { offerValues } from '../completion/tree.js';
import type { CliContext } from '../context.js';
import type { RegressOptions } from '../run/run-regress.js';

export function registerRegressCommand(program: Command, ctx: CliContext): void {
  program
    .command('regress')
    .description(
      'A/B test two recovery strategies (or two sets of recorded scores): effect size, p-value, interval, runs used',
    )
    .option('--baseline <file>', 'baseline strategy (YAML)')
    .option('--candidate <file>', 'candidate strategy (YAML)')
    .option('--baseline-target <file>', 'baseline system: a target file (e.g. the last release of your agents)')
    .option(
      '--candidate-target <file>',
      'candidate system: a target file; runs one at a time unless --parallel says otherwise',
    )
    .option(
      '--baseline-scores <files...>',
      'recorded baseline scores: JSON array of numbers or --report/--json documents',
    )
    .option('--candidate-scores <files...>', 'recorded candidate scores, same formats')
    .option('--paired', 'recorded scores are paired by index (same seed per position): use the paired test')
    .option('--scenario <file>', 'workload of every run: this scenario')
    .option('--survival <duration>', 'workload of every run: a survival run of this length (default 3s)')
    .option('--interval <duration>', 'survival: time between random faults (default 500ms)')
    .addOption(
      offerValues(new Option('--actions <list>', 'survival: comma-separated action types to pick from'), ACTION_TYPES, {
        list: true,
      }),
    )
    .option(
      '--recovery-deadline <duration>',
      'survival: a fault not recovered within this counts as not recovered (default 10s)',
    )
    .option('--cooldown <duration>', 'survival: recovery watched after the last fault')
    .option('--runs <n>', 'runs per arm (default 10)')
    .option('--adaptive', "stop early with a group-sequential design (O'Brien–Fleming alpha spending)")
    .option('--min-runs <n>', 'adaptive: runs per arm at the first look (default 5)')
    .option('--batch <n>', 'adaptive: runs per arm added between looks (default 5)')
    .option('--max-runs <n>', 'adaptive: most runs per arm (default 30)')
    .option(
      '--spending <name>',
      'adaptive: alpha spending, obrien-fleming (default) or pocock (fewer runs on a real effect; give ~1.25x the --max-runs for the same power)',
    )
    .option(
      '--futility <power>',
      'adaptive: also stop when the conditional power falls below this, e.g. 0.1 (saves runs on no effect, costs power: see the README)',
    )
    .option('--alpha <a>', 'significance level, two-sided (default 0.05)')
    .option(
      '--parallel <n>',
      'runs executing at once, both arms together (default 4; with --workers, all runs of a look)',
    )
    .option(
      '--workers <url>',
      'put the runs on a queue in this postgres:// database for arena worker processes to execute',
    )
    .option('--seed <n>', 'seed of the run seeds (printed when not given)')
    .option(
      '--weights <list>',
      'score each run by a weighted ensemble, e.g. availability=2,recovery=1,consistency=1 (default: the resilience score)',
    )
    .option('--min-effect <points>', 'the difference in score points the power statement is about (default 5)')
    .option('--json', 'print one JSON document on stdout and nothing else there')
    .option('--junit <file>', 'write a JUnit XML report')
    .option('--fail-on-no-improvement', 'exit 1 unless the candidate is significantly better')
    .option('--no-color', 'no colour')
    .addHelpText(
      'after',
      `
Examples:
  $ arena regress --baseline strategies/recovery-off.yaml --candidate strategies/default.yaml
  $ arena regress --baseline a.yaml --candidate b.yaml --scenario scenarios/leader-failover.yaml --adaptive --json
  $ arena regress --baseline a.yaml --candidate b.yaml --adaptive --spending pocock --min-runs 12 --batch 4 --max-runs 54
  $ arena regress --baseline a.yaml --candidate b.yaml --survival 5s --runs 20 --parallel 4 --seed 7
  $ arena regress --baseline-target old.yaml --candidate-target new.yaml --survival 20s --interval 2s --runs 6
  $ arena regress --baseline-scores last-release.json --candidate-scores this-build.json --fail-on-no-improvement
  $ arena regress --baseline a.yaml --candidate b.yaml --adaptive --workers postgres://arena@db.internal/arena`,
    )
    .action(async (options: RegressOptions) => {
      const { runRegress } = await import('../run/run-regress.js');
      await runRegress(options, ctx);
    });
}
