/**
 * The rules of an evolution request, for `arena evolve` and any HTTP caller alike: what may be
 * asked, how durations parse, and what the results look like (the strategy file written, the
 * JSON document, the list of changed fields). Pure; bootstrap/evolve.ts runs the plan.
 */
import { UsageError } from '../shared/errors.js';
import { parseDuration } from '../shared/duration.js';
import { randomSeed } from '../shared/random.js';
import { stringify } from 'yaml';
import type { Strategy } from '../runtime/strategy.js';
import type { EvolutionResult } from './ga.js';

/** what a user asks for (the CLI's options, counts already integers) */
export interface EvolveRequest {
  generations: number;
  population: number;
  elitism: number;
  seed?: number;
  /** starting strategy file; default: the built-in default strategy */
  from?: string;
  /** where the best strategy is written */
  out?: string;
  /** survival chaos window per evaluation, e.g. "1s" */
  duration: string;
  /** time between faults in each survival run, e.g. "150ms" */
  interval: string;
  /** refused: evolve tunes the embedded runtime only */
  target?: string;
}

export interface EvolvePlan extends Omit<EvolveRequest, 'seed' | 'target'> {
  seed: number;
  durationMs: number;
  intervalMs: number;
}

/** Checks a request; throws a UsageError saying what to do instead. */
export function planEvolve(request: EvolveRequest, seedSource: () => number = randomSeed): EvolvePlan {
  if (request.target !== undefined) {
    throw new UsageError(
      `arena evolve tunes the embedded runtime's recovery strategy only; it cannot change ${request.target}`,
      {
        code: 'evolve_embedded_only',
        hint: "tune your own system's supervisor or retry settings, then compare the two releases with: arena regress --baseline-target OLD.yaml --candidate-target NEW.yaml",
      },
    );
  }
  if (request.elitism >= request.population)
    throw new UsageError(`--elitism (${request.elitism}) must be below --population (${request.population})`);
  const durationMs = parseDuration(request.duration);
  const intervalMs = parseDuration(request.interval);
  if (intervalMs <= 0 || durationMs < intervalMs)
    throw new UsageError('--duration must be at least one --interval, and --interval positive');
  return {
    generations: request.generations,
    population: request.population,
    elitism: request.elitism,
    ...(request.from !== undefined ? { from: request.from } : {}),
    ...(request.out !== undefined ? { out: request.out } : {}),
    duration: request.duration,
    interval: request.interval,
    seed: request.seed ?? seedSource(),
    durationMs,
    intervalMs,
  };
}

/** below either, one survival run's score is too noisy to tell strategies apart on its own */
const STEADY_RUN_MS = 10_000;
const STEADY_RUN_FAULTS = 30;

/**
 * A warning when each evaluation is too short or draws too few faults to be more than noise: the
 * "best" strategy of 1-second runs (recovery turned off, say) may only have been lucky.
 */
export function noiseWarning(
  plan: Pick<EvolvePlan, 'duration' | 'durationMs' | 'intervalMs' | 'from' | 'out'>,
): string | undefined {
  const faults = Math.floor(plan.durationMs / plan.intervalMs);
  if (plan.durationMs >= STEADY_RUN_MS && faults >= STEADY_RUN_FAULTS) return undefined;
  return `each evaluation is one ${plan.duration} survival run with ${faults} fault(s): its score is mostly noise, so the best strategy (even one that turns recovery off) may only have been lucky. Check it with arena regress --baseline ${plan.from ?? 'strategies/default.yaml'} --candidate ${plan.out ?? 'BEST.yaml'} --runs 10 before using it, or evolve with --duration ${STEADY_RUN_MS / 1000}s or more and at least ${STEADY_RUN_FAULTS} faults per run`;
}

/** the strategy file `arena regress` reads, headed by how it was found and how to compare it */
export function evolvedStrategyFile(
  plan: EvolvePlan,
  best: { strategy: Strategy; fitness: number },
  initialFitness: number | undefined,
  note = '',
): string {
  const header = [
    `# recovery strategy evolved by \`arena evolve\` (seed ${plan.seed}, ${plan.generations} generations × ${plan.population})${note}`,
    `# measured survival score: ${best.fitness.toFixed(1)}${initialFitness !== undefined ? ` (starting strategy: ${initialFitness.toFixed(1)})` : ''}`,
    `# compare: arena regress --baseline ${plan.from ?? 'strategies/default.yaml'} --candidate ${plan.out}`,
  ];
  const noise = noiseWarning(plan);
  if (noise) header.push(`# warning: ${noise}`);
  return `${header.join('\n')}\n${stringify(best.strategy)}`;
}

/** the JSON document of a finished evolution (schema_version 1); generations without their strategies */
export function evolveDocument(result: EvolutionResult, outPath: string | undefined, warning?: string) {
  const generations = result.generations.map(({ best_strategy, ...g }) => (void best_strategy, g));
  return {
    schema_version: 1,
    seed: result.seed,
    population: result.population,
    evaluations: result.evaluations,
    initial_fitness: result.initial.fitness,
    best: result.best,
    generations,
    ...(outPath ? { out: outPath } : {}),
    ...(warning ? { warnings: [warning] } : {}),
  };
}

/** "election.lease_ms: 300 → 225" for every field the search changed */
export function changedFields(a: object, b: object): string[] {
  const out: string[] = [];
  for (const [section, fields] of Object.entries(b as Record<string, Record<string, unknown>>)) {
    for (const [key, value] of Object.entries(fields)) {
      const before = (a as Record<string, Record<string, unknown>>)[section]?.[key];
      if (before !== value) out.push(`${section}.${key}: ${String(before)} → ${String(value)}`);
    }
  }
  return out;
}
