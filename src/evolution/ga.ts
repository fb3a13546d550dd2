/**
 * runEvolution: a genetic algorithm over recovery strategies. Fitness is
 * injected (the real one is the measured resilience score of a seeded
 * survival run, see survival-fitness.ts), so the algorithm is testable with a
 * cheap function and replayable from its seed.
 *
 * Each generation: evaluate (cached by genome), keep the `elitism` best
 * unchanged, fill the rest with children of tournament-selected parents
 * (uniform crossover with probability `crossoverRate`, then mutation).
 */
import { CancelledError, UsageError } from '../shared/errors.js';
import { createRandom, type Random } from '../shared/random.js';
import { DEFAULT_STRATEGY, parseStrategy, type Strategy } from '../runtime/strategy.js';
import { crossover, diversity, genomeKey, mutate } from './genome.js';

export interface FitnessContext {
  generation: number;
  /** index in the generation's population */
  index: number;
  /** the seed every individual of this generation is measured with (common random numbers) */
  seed: number;
  signal?: AbortSignal;
}

/** higher is better (the resilience score, 0–100) */
export type FitnessFunction = (strategy: Strategy, ctx: FitnessContext) => Promise<number> | number;

export interface EvolutionOptions {
  generations: number;
  fitness: FitnessFunction;
  /** individuals per generation (default 8) */
  population?: number;
  /** best individuals carried over unchanged (default 1) */
  elitism?: number;
  /** per-gene mutation probability (default 0.15) */
  mutationRate?: number;
  /** probability a child is a crossover of two parents rather than a copy of one (default 0.7) */
  crossoverRate?: number;
  tournamentSize?: number;
  /** where the search starts (default DEFAULT_STRATEGY) */
  initial?: unknown;
  seed?: number;
  random?: Random;
  /**
   * true: every generation is measured with the same survival seed, so a
   * strategy's fitness does not depend on which generation met it (default true)
   */
  fixedFitnessSeed?: boolean;
  /** evaluations run at once (default 1; survival runs are timing-sensitive) */
  concurrency?: number;
  signal?: AbortSignal;
  onGeneration?: (stats: GenerationStats) => void;
  /** awaited before each evaluation: lets a caller pause the search (idle evolution) */
  beforeEvaluation?: (ctx: FitnessContext) => Promise<void>;
}

export interface GenerationStats {
  generation: number;
  best: number;
  mean: number;
  worst: number;
  /** mean pairwise genome distance, 0–1 */
  diversity: number;
  /** fitness evaluations this generation (cached genomes are not re-measured) */
  evaluations: number;
  best_strategy: Strategy;
}

export interface EvolutionResult {
  best: { strategy: Strategy; fitness: number; generation: number };
  initial: { strategy: Strategy; fitness: number };
  generations: GenerationStats[];
  evaluations: number;
  seed: number;
  population: number;
}

interface Individual {
  strategy: Strategy;
  fitness: number;
}

export async function runEvolution(options: EvolutionOptions): Promise<EvolutionResult> {
  const generations = options.generations;
  const size = options.population ?? 8;
  const elitism = options.elitism ?? 1;
  const mutationRate = options.mutationRate ?? 0.15;
  const crossoverRate = options.crossoverRate ?? 0.7;
  const tournament = options.tournamentSize ?? 3;
  const concurrency = options.concurrency ?? 1;
  if (!Number.isInteger(generations) || generations < 1)
    throw new UsageError(`generations: must be a positive integer, got ${generations}`);
  if (!Number.isInteger(size) || size < 2) throw new UsageError(`population: must be an integer ≥ 2, got ${size}`);
  if (!Number.isInteger(elitism) || elitism < 0 || elitism >= size)
    throw new UsageError(`elitism: must be an integer from 0 to population − 1, got ${elitism}`);
  if (!(mutationRate >= 0 && mutationRate <= 1))
    throw new UsageError(`mutationRate: must be from 0 to 1, got ${mutationRate}`);
  if (!(crossoverRate >= 0 && crossoverRate <= 1))
    throw new UsageError(`crossoverRate: must be from 0 to 1, got ${crossoverRate}`);
  if (!Number.isInteger(concurrency) || concurrency < 1)
    throw new UsageError(`concurrency: must be a positive integer, got ${concurrency}`);
  const seed = options.seed ?? options.random?.seed ?? 1;
  const random = options.random ?? createRandom(seed);
  const initial =
    options.initial === undefined
      ? structuredClone(DEFAULT_STRATEGY)
      : parseStrategy(options.initial, 'initial strategy');

  const cache = new Map<string, number>();
  let evaluations = 0;
  const fixedSeed = options.fixedFitnessSeed ?? true;
  const seedFor = (generation: number) => (fixedSeed ? seed : (seed + generation * 7919) >>> 0);

  async function evaluate(
    population: Strategy[],
    generation: number,
  ): Promise<{ individuals: Individual[]; evaluated: number }> {
    const out: Individual[] = new Array(population.length);
    let evaluated = 0;
    let next = 0;
    const worker = async () => {
      while (next < population.length) {
        const index = next++;
        const strategy = population[index]!;
        const key = genomeKey(strategy);
        // with per-generation seeds a cached value would be from another measurement: re-measure
        const cached = fixedSeed ? cache.get(key) : undefined;
        if (cached !== undefined) {
          out[index] = { strategy, fitness: cached };
          continue;
        }
        if (options.signal?.aborted) throw new CancelledError('evolution cancelled');
        const ctx: FitnessContext = {
          generation,
          index,
          seed: seedFor(generation),
          ...(options.signal ? { signal: options.signal } : {}),
        };
        await options.beforeEvaluation?.(ctx);
        const fitness = await options.fitness(structuredClone(strategy), ctx);
        if (!Number.isFinite(fitness))
          throw new UsageError(
            `fitness function returned ${fitness} for individual ${index} of generation ${generation}`,
          );
        evaluations++;
        evaluated++;
        cache.set(key, fitness);
        out[index] = { strategy, fitness };
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, population.length) }, worker));
    return { individuals: out, evaluated };
  }

  // generation 0: the starting strategy and mutants of it
  let population: Strategy[] = [structuredClone(initial)];
  while (population.length < size) population.push(mutate(initial, random, mutationRate));

  const history: GenerationStats[] = [];
  let best: EvolutionResult['best'] | undefined;
  let initialFitness = 0;
  for (let generation = 0; generation < generations; generation++) {
    const { individuals, evaluated } = await evaluate(population, generation);
    if (generation === 0) initialFitness = individuals[0]!.fitness;
    const ranked = [...individuals].sort((a, b) => b.fitness - a.fitness);
    const fitnesses = ranked.map((i) => i.fitness);
    const stats: GenerationStats = {
      generation,
      best: fitnesses[0]!,
      mean: fitnesses.reduce((s, f) => s + f, 0) / fitnesses.length,
      worst: fitnesses[fitnesses.length - 1]!,
      diversity: diversity(population),
      evaluations: evaluated,
      best_strategy: structuredClone(ranked[0]!.strategy),
    };
    history.push(stats);
    if (!best || stats.best > best.fitness)
      best = { strategy: structuredClone(ranked[0]!.strategy), fitness: stats.best, generation };
    options.onGeneration?.(stats);
    if (generation === generations - 1) break;

    const nextPopulation: Strategy[] = ranked.slice(0, elitism).map((i) => structuredClone(i.strategy));
    const pick = () => {
      let winner = individuals[random.int(0, individuals.length - 1)]!;
      for (let t = 1; t < tournament; t++) {
        const rival = individuals[random.int(0, individuals.length - 1)]!;
        if (rival.fitness > winner.fitness) winner = rival;
      }
      return winner.strategy;
    };
    while (nextPopulation.length < size) {
      const parent = pick();
      const child = random.next() < crossoverRate ? crossover(parent, pick(), random) : structuredClone(parent);
      nextPopulation.push(mutate(child, random, mutationRate));
    }
    population = nextPopulation;
  }
  return {
    best: best!,
    initial: { strategy: initial, fitness: initialFitness },
    generations: history,
    evaluations,
    seed,
    population: size,
  };
}
