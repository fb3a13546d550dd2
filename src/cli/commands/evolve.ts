/**
 * `arena evolve`: a genetic search over recovery strategies whose fitness is
 * the measured score of a seeded survival run; prints progress per generation
 * and writes the best strategy as a strategy file `arena regress` can read.
 * The rules are in evolution/request.ts and the run in bootstrap/evolve.ts; this file declares the
 * options and prints.
 */
import type { Command } from 'commander';
import { InvalidArgumentError } from 'commander';
import type { CliContext } from '../context.js';
import { applyColor, resolveOutputMode } from '../output/mode.js';
import { examples, parseDurationOption, parseSeed } from './options.js';
import type { EvolveRequest } from '../../evolution/request.js';

interface EvolveOptions extends EvolveRequest {
  json?: boolean;
  color?: boolean;
}

function positiveInt(name: string, min: number) {
  return (value: string): number => {
    const n = Number(value);
    if (!/^\d+$/.test(value.trim()) || n < min) throw new InvalidArgumentError(`${name} must be an integer ≥ ${min}`);
    return n;
  };
}

export function registerEvolveCommand(program: Command, ctx: CliContext): void {
  const command = program
    .command('evolve')
    .description(
      "Evolve the embedded runtime's recovery strategy: a genetic search whose fitness is the measured score of seeded survival runs (it tunes the embedded runtime only)",
    )
    .option('--generations <n>', 'generations to run', positiveInt('generations', 1), 5)
    .option('--population <n>', 'strategies per generation', positiveInt('population', 2), 6)
    .option('--elitism <n>', 'best strategies carried over unchanged', positiveInt('elitism', 0), 1)
    .option('--seed <n>', 'fixes the search and the survival runs (printed so it can be replayed)', parseSeed)
    .option('--from <file>', 'starting strategy (YAML); default: the built-in default strategy')
    .option('--out <file>', 'write the best strategy here (YAML strategy file)')
    .option('--duration <duration>', 'survival chaos window per evaluation', parseDurationOption, '1s')
    .option('--interval <duration>', 'time between faults in each survival run', parseDurationOption, '150ms')
    .option('--json', 'print one JSON document on stdout (schema_version 1) and nothing else there')
    .option(
      '--target <file>',
      'refused: evolve tunes the embedded runtime only (compare your own releases with regress --baseline-target/--candidate-target)',
    )
    .option('--no-color', 'no colours (NO_COLOR is honoured too)');
  examples(command, [
    'arena evolve --generations 5 --population 6 --seed 42 --out best.yaml',
    'arena evolve --from strategies/recovery-off.yaml --out evolved.yaml',
    'arena regress --baseline strategies/recovery-off.yaml --candidate evolved.yaml',
    'arena evolve --generations 3 --duration 500ms --json',
  ]);
  command.action(async (options: EvolveOptions) => {
    const mode = resolveOutputMode({ json: options.json, color: options.color }, ctx);
    applyColor(mode);
    const [{ planEvolve, evolveDocument, changedFields, noiseWarning }, { runEvolvePlan }] = await Promise.all([
      import('../../evolution/request.js'),
      import('../../bootstrap/evolve.js'),
    ]);
    const plan = planEvolve(options);
    const log = (line: string) => ctx.stderr.write(`${line}\n`);
    log(
      `evolve: seed ${plan.seed} (replay with --seed ${plan.seed}), ${plan.generations} generations × ${plan.population} strategies, survival ${plan.duration} every ${plan.interval}`,
    );
    const noise = noiseWarning(plan);
    if (noise) log(`evolve: warning: ${noise}`);
    const { result, outPath } = await runEvolvePlan(plan, {
      cwd: ctx.cwd,
      signal: ctx.signal,
      onNotice: log,
      onGeneration: (g) =>
        log(
          `generation ${g.generation + 1}/${plan.generations}: best ${g.best.toFixed(1)}  mean ${g.mean.toFixed(1)}  worst ${g.worst.toFixed(1)}  diversity ${g.diversity.toFixed(3)}  (${g.evaluations} survival runs)`,
        ),
    });
    if (mode.kind === 'json') {
      ctx.stdout.write(`${JSON.stringify(evolveDocument(result, outPath, noise), null, 2)}\n`);
      return;
    }
    const lines = [
      `best fitness ${result.best.fitness.toFixed(1)} (generation ${result.best.generation + 1}); starting strategy ${result.initial.fitness.toFixed(1)}; ${result.evaluations} survival runs`,
      ...changedFields(result.initial.strategy, result.best.strategy).map((c) => `  ${c}`),
      outPath ? `best strategy written to ${plan.out}` : 'use --out FILE to save the best strategy',
      // said again by the recommendation it qualifies, not only at the start
      ...(noise ? [`warning: ${noise}`] : []),
    ];
    ctx.stdout.write(`${lines.join('\n')}\n`);
  });
}
