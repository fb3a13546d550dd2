/**
 * Runs an evolution plan (evolution/request.ts) on the embedded runtime: each candidate strategy's
 * fitness is the measured score of a seeded survival run. Writes the best strategy to `plan.out`,
 * also when interrupted after at least one generation (then rethrows the CancelledError).
 */
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { UsageError, errorMessage, isArenaError } from '../shared/errors.js';
import { runEvolution, type EvolutionResult, type GenerationStats } from '../evolution/ga.js';
import { evolvedStrategyFile, type EvolvePlan } from '../evolution/request.js';
import { DEFAULT_STRATEGY, loadStrategyFile, type Strategy } from '../runtime/strategy.js';
import { createSurvivalFitness } from './survival-fitness.js';

export interface EvolveEnvironment {
  /** `from` and `out` are relative to this */
  cwd: string;
  signal?: AbortSignal;
  onGeneration?: (g: GenerationStats) => void;
  /** what happened to the output when interrupted */
  onNotice?: (line: string) => void;
}

export interface EvolveOutcome {
  result: EvolutionResult;
  /** absolute path of the strategy file written, when `out` was given */
  outPath?: string;
}

export async function runEvolvePlan(plan: EvolvePlan, env: EvolveEnvironment): Promise<EvolveOutcome> {
  const initial = plan.from ? await loadStrategyFile(resolve(env.cwd, plan.from)) : DEFAULT_STRATEGY;
  const fitness = createSurvivalFitness({ durationMs: plan.durationMs, intervalMs: plan.intervalMs });
  let bestSoFar: { strategy: Strategy; fitness: number; generation: number } | undefined;
  const writeBest = async (
    best: { strategy: Strategy; fitness: number },
    initialFitness: number | undefined,
    note?: string,
  ): Promise<string | undefined> => {
    if (!plan.out) return undefined;
    const path = resolve(env.cwd, plan.out);
    try {
      await writeFile(path, evolvedStrategyFile(plan, best, initialFitness, note));
    } catch (err) {
      throw new UsageError(`cannot write ${plan.out}: ${errorMessage(err)}`);
    }
    return path;
  };
  let result: EvolutionResult;
  try {
    result = await runEvolution({
      generations: plan.generations,
      population: plan.population,
      elitism: plan.elitism,
      seed: plan.seed,
      initial,
      fitness,
      ...(env.signal ? { signal: env.signal } : {}),
      onGeneration: (g) => {
        if (!bestSoFar || g.best > bestSoFar.fitness)
          bestSoFar = { strategy: g.best_strategy, fitness: g.best, generation: g.generation };
        env.onGeneration?.(g);
      },
    });
  } catch (err) {
    // interrupted: keep what the finished generations found
    if (isArenaError(err) && err.exitCode === 130 && bestSoFar && plan.out) {
      await writeBest(bestSoFar, undefined, ', interrupted');
      env.onNotice?.(
        `evolve: interrupted; best strategy so far (${bestSoFar.fitness.toFixed(1)}, generation ${bestSoFar.generation + 1}) written to ${plan.out}`,
      );
    }
    throw err;
  }
  const outPath = await writeBest(result.best, result.initial.fitness);
  return { result, ...(outPath ? { outPath } : {}) };
}
