/**
 * `arena evolve`: a genetic search over recovery strategies whose fitness is
 * the measured score of a seeded survival run; prints progress per generation
 * and writes the best strategy as a strategy file `arena regress` can read.
 */
import type { Command } from 'commander';
import { InvalidArgumentError } from 'commander';
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { CliContext } from '../context.js';
import { applyColor, resolveOutputMode } from '../output/mode.js';
import { examples, parseDurationOption, parseSeed } from './options.js';
import { UsageError, errorMessage, isArenaError } from '../../shared/errors.js';
import type { Strategy } from '../../runtime/strategy.js';
import { parseDuration } from '../../shared/duration.js';
import { randomSeed } from '../../shared/random.js';

interface EvolveOptions {
  target?: string;
  generations: number;
  population: number;
  elitism: number;
  seed?: number;
  from?: string;
  out?: string;
  duration: string;
  interval: string;
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
    .description("evolve the embedded runtime's recovery strategy: a genetic search whose fitness is the measured score of seeded survival runs (it tunes the embedded runtime only)")
    .option('--generations <n>', 'generations to run', positiveInt('generations', 1), 5)
    .option('--population <n>', 'strategies per generation', positiveInt('population', 2), 6)
    .option('--elitism <n>', 'best strategies carried over unchanged', positiveInt('elitism', 0), 1)
    .option('--seed <n>', 'fixes the search and the survival runs (printed so it can be replayed)', parseSeed)
    .option('--from <file>', 'starting strategy (YAML); default: the built-in default strategy')
    .option('--out <file>', 'write the best strategy here (YAML strategy file)')
    .option('--duration <duration>', 'survival chaos window per evaluation', parseDurationOption, '1s')
    .option('--interval <duration>', 'time between faults in each survival run', parseDurationOption, '150ms')
    .option('--json', 'print one JSON document on stdout (schema_version 1) and nothing else there')
    .option('--target <file>', 'refused: evolve tunes the embedded runtime only (compare your own releases with regress --baseline-target/--candidate-target)')
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
    if (options.target !== undefined) {
      throw new UsageError(`arena evolve tunes the embedded runtime's recovery strategy only; it cannot change ${options.target}`, 'evolve_embedded_only', {
        hint: "tune your own system's supervisor or retry settings, then compare the two releases with: arena regress --baseline-target OLD.yaml --candidate-target NEW.yaml",
      });
    }
    if (options.elitism >= options.population) throw new UsageError(`--elitism (${options.elitism}) must be below --population (${options.population})`);
    const [{ runEvolution }, { createSurvivalFitness }, { loadStrategyFile, DEFAULT_STRATEGY }, { stringify }] = await Promise.all([
      import('../../evolution/ga.js'),
      import('../../bootstrap/survival-fitness.js'),
      import('../../runtime/strategy.js'),
      import('yaml'),
    ]);
    const initial = options.from ? await loadStrategyFile(resolve(ctx.cwd, options.from)) : DEFAULT_STRATEGY;
    const seed = options.seed ?? randomSeed();
    const durationMs = parseDuration(options.duration);
    const intervalMs = parseDuration(options.interval);
    if (intervalMs <= 0 || durationMs < intervalMs) throw new UsageError('--duration must be at least one --interval, and --interval positive');
    const log = (line: string) => ctx.stderr.write(`${line}\n`);
    log(`evolve: seed ${seed} (replay with --seed ${seed}), ${options.generations} generations × ${options.population} strategies, survival ${options.duration} every ${options.interval}`);
    const fitness = createSurvivalFitness({ durationMs, intervalMs });
    // the arena's clock timers are unref'd; the survival runs are awaited work, so keep the process alive while they last
    const keepAlive = setInterval(() => undefined, 60_000);
    let bestSoFar: { strategy: Strategy; fitness: number; generation: number } | undefined;
    const writeBest = async (best: { strategy: Strategy; fitness: number }, initialFitness: number | undefined, note = ''): Promise<string | undefined> => {
      if (!options.out) return undefined;
      const path = resolve(ctx.cwd, options.out);
      const header = [
        `# recovery strategy evolved by \`arena evolve\` (seed ${seed}, ${options.generations} generations × ${options.population})${note}`,
        `# measured survival score: ${best.fitness.toFixed(1)}${initialFitness !== undefined ? ` (starting strategy: ${initialFitness.toFixed(1)})` : ''}`,
        `# compare: arena regress --baseline ${options.from ?? 'strategies/default.yaml'} --candidate ${options.out}`,
      ].join('\n');
      try {
        await writeFile(path, `${header}\n${stringify(best.strategy)}`);
      } catch (err) {
        throw new UsageError(`cannot write ${options.out}: ${errorMessage(err)}`);
      }
      return path;
    };
    let result: Awaited<ReturnType<typeof runEvolution>>;
    try {
      result = await runEvolution({
        generations: options.generations,
        population: options.population,
        elitism: options.elitism,
        seed,
        initial,
        fitness,
        signal: ctx.signal,
        onGeneration: (g) => {
          if (!bestSoFar || g.best > bestSoFar.fitness) bestSoFar = { strategy: g.best_strategy, fitness: g.best, generation: g.generation };
          log(
            `generation ${g.generation + 1}/${options.generations}: best ${g.best.toFixed(1)}  mean ${g.mean.toFixed(1)}  worst ${g.worst.toFixed(1)}  diversity ${g.diversity.toFixed(3)}  (${g.evaluations} survival runs)`,
          );
        },
      });
    } catch (err) {
      // interrupted: keep what the finished generations found
      if (isArenaError(err) && err.exitCode === 130 && bestSoFar && options.out) {
        await writeBest(bestSoFar, undefined, ', interrupted');
        log(`evolve: interrupted; best strategy so far (${bestSoFar.fitness.toFixed(1)}, generation ${bestSoFar.generation + 1}) written to ${options.out}`);
      }
      throw err;
    } finally {
      clearInterval(keepAlive);
    }
    const outPath = await writeBest(result.best, result.initial.fitness);
    const generations = result.generations.map(({ best_strategy, ...g }) => (void best_strategy, g));
    if (mode.kind === 'json') {
      const doc = { schema_version: 1, seed, population: result.population, evaluations: result.evaluations, initial_fitness: result.initial.fitness, best: result.best, generations, ...(outPath ? { out: outPath } : {}) };
      ctx.stdout.write(`${JSON.stringify(doc, null, 2)}\n`);
      return;
    }
    const lines = [
      `best fitness ${result.best.fitness.toFixed(1)} (generation ${result.best.generation + 1}); starting strategy ${result.initial.fitness.toFixed(1)}; ${result.evaluations} survival runs`,
      ...changedFields(result.initial.strategy, result.best.strategy).map((c) => `  ${c}`),
      outPath ? `best strategy written to ${options.out}` : 'use --out FILE to save the best strategy',
    ];
    ctx.stdout.write(`${lines.join('\n')}\n`);
  });
}

/** "election.lease_ms: 300 → 225" for every field the search changed */
function changedFields(a: object, b: object): string[] {
  const out: string[] = [];
  for (const [section, fields] of Object.entries(b as Record<string, Record<string, unknown>>)) {
    for (const [key, value] of Object.entries(fields)) {
      const before = (a as Record<string, Record<string, unknown>>)[section]?.[key];
      if (before !== value) out.push(`${section}.${key}: ${String(before)} → ${String(value)}`);
    }
  }
  return out;
}
