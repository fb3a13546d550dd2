import { describe, expect, it } from 'vitest';
import { runEvolution, type FitnessFunction } from '../../../src/evolution/ga.js';
import { createSurvivalFitness } from '../../../src/bootstrap/survival-fitness.js';
import { diversity, mutate, crossover, GENES } from '../../../src/evolution/genome.js';
import {
  DEFAULT_STRATEGY,
  RECOVERY_OFF_STRATEGY,
  crossCheck,
  parseStrategy,
  type Strategy,
} from '../../../src/runtime/strategy.js';
import { createRandom } from '../../../src/shared/random.js';
import { UsageError } from '../../../src/shared/errors.js';

/** a cheap stand-in for a survival run: mechanisms on and short recovery timings score higher */
const synthetic: FitnessFunction = (s: Strategy) => {
  const on = [s.supervisor, s.election, s.failover, s.checkpoints, s.integrity, s.llm, s.tools, s.mcp, s.dag].filter(
    (m) => m.enabled,
  ).length;
  return on * 10 - s.supervisor.backoff_ms / 100 - s.election.lease_ms / 500;
};

describe('genome operators', () => {
  it('mutation and crossover always produce valid strategies', () => {
    const random = createRandom(3);
    let a: Strategy = structuredClone(DEFAULT_STRATEGY);
    let b: Strategy = structuredClone(RECOVERY_OFF_STRATEGY);
    for (let i = 0; i < 300; i++) {
      a = mutate(a, random, 0.5);
      b = crossover(b, a, random);
      expect(crossCheck(a)).toEqual([]);
      expect(crossCheck(b)).toEqual([]);
      // round-trips through the strategy parser (what a written strategy file goes through)
      expect(parseStrategy(JSON.parse(JSON.stringify(a)))).toEqual(a);
    }
    expect(GENES.length).toBeGreaterThan(20);
    expect(diversity([a, a])).toBe(0);
    expect(diversity([DEFAULT_STRATEGY, RECOVERY_OFF_STRATEGY])).toBeGreaterThan(0);
  });
});

describe('runEvolution', () => {
  it('improves a weak strategy and is replayable from its seed', async () => {
    const run = () =>
      runEvolution({
        generations: 8,
        population: 8,
        seed: 11,
        initial: RECOVERY_OFF_STRATEGY,
        fitness: synthetic,
        mutationRate: 0.1,
      });
    const result = await run();
    const best = result.generations.map((g) => g.best);
    expect(best[best.length - 1]!).toBeGreaterThan(best[0]!);
    // elitism: the best never gets worse
    for (let i = 1; i < best.length; i++) expect(best[i]!).toBeGreaterThanOrEqual(best[i - 1]!);
    expect(result.best.fitness).toBeGreaterThan(result.initial.fitness);
    expect(result.generations.every((g) => g.worst <= g.mean && g.mean <= g.best)).toBe(true);
    expect(result.generations[0]!.diversity).toBeGreaterThan(0);
    expect(result.evaluations).toBeLessThanOrEqual(8 * 8);
    const again = await run();
    expect(again.generations.map((g) => g.best)).toEqual(best);
    expect(again.best.strategy).toEqual(result.best.strategy);
  });

  it('rejects bad parameters and a fitness that is not a number', async () => {
    await expect(runEvolution({ generations: 0, fitness: synthetic })).rejects.toBeInstanceOf(UsageError);
    await expect(runEvolution({ generations: 1, population: 1, fitness: synthetic })).rejects.toThrow(/population/);
    await expect(runEvolution({ generations: 1, population: 3, elitism: 3, fitness: synthetic })).rejects.toThrow(
      /elitism/,
    );
    await expect(runEvolution({ generations: 1, fitness: () => NaN })).rejects.toThrow(/fitness function returned NaN/);
    await expect(
      runEvolution({ generations: 1, fitness: synthetic, initial: { election: { lease_ms: -1 } } }),
    ).rejects.toThrow(/election.lease_ms/);
  });

  it('raises the measured resilience score of a recovery-off strategy with real survival runs', async () => {
    const fitness = createSurvivalFitness({ durationMs: 300, intervalMs: 60, recoveryDeadlineMs: 250 });
    const result = await runEvolution({
      generations: 4,
      population: 4,
      elitism: 1,
      seed: 5,
      mutationRate: 0.08,
      initial: RECOVERY_OFF_STRATEGY,
      fitness,
    });
    const best = result.generations.map((g) => g.best);
    expect(best[best.length - 1]!).toBeGreaterThan(best[0]!);
    expect(result.best.fitness).toBeGreaterThan(result.initial.fitness);
    // the winner turned recovery mechanisms back on
    const on = (s: Strategy) =>
      [s.supervisor, s.election, s.failover, s.checkpoints, s.integrity, s.llm, s.tools, s.mcp, s.dag].filter(
        (m) => m.enabled,
      ).length;
    expect(on(result.best.strategy)).toBeGreaterThan(on(RECOVERY_OFF_STRATEGY));
    console.log('survival GA best per generation', best, 'evaluations', result.evaluations);
  }, 30_000);
});
