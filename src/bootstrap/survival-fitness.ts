/**
 * The real fitness of a strategy: the measured resilience score of a seeded
 * survival run against a fresh embedded target running that strategy. Every
 * individual of a generation faces the same seed, so the same faults at the
 * same offsets: differences in score come from the strategy.
 *
 * It lives in bootstrap because it assembles concrete pieces (the embedded
 * target, survival); evolution/ stays below them and takes fitness injected.
 */
import type { Strategy } from '../runtime/strategy.js';
import { createEmbeddedTarget } from '../targets/embedded/index.js';
import { runSurvivalOnTarget } from '../arena/survival/on-target.js';
import type { FitnessContext, FitnessFunction } from '../evolution/ga.js';

export interface SurvivalFitnessOptions {
  /** chaos window per evaluation (ms, default 1000) */
  durationMs?: number;
  /** time between faults (ms, default 150) */
  intervalMs?: number;
  /** recovery watched after the last fault (ms, default 2 × interval) */
  cooldownMs?: number;
  warmupMs?: number;
  /** fault kinds (default: survival's default set) */
  actions?: string | readonly string[];
  /** workload runs per second on the target (default: the strategy's) */
  workloadRate?: number;
  /** a fault not recovered within this is counted as not recovered (ms) */
  recoveryDeadlineMs?: number;
  /** called with every finished measurement (progress, logging) */
  onMeasured?: (m: {
    strategy: Strategy;
    ctx: FitnessContext;
    score: number;
    availability: number;
    recovery: number;
    consistency: number;
  }) => void;
}

export function createSurvivalFitness(options: SurvivalFitnessOptions = {}): FitnessFunction {
  const intervalMs = options.intervalMs ?? 150;
  return async (strategy, ctx) => {
    const target = createEmbeddedTarget({
      strategy,
      seed: ctx.seed,
      ...(options.workloadRate !== undefined ? { workloadRate: options.workloadRate } : {}),
    });
    const report = await runSurvivalOnTarget(target, {
      duration: options.durationMs ?? 1000,
      interval: intervalMs,
      cooldown: options.cooldownMs ?? intervalMs * 2,
      warmup: options.warmupMs ?? 0,
      seed: ctx.seed,
      ...(options.actions !== undefined ? { actions: options.actions } : {}),
      // a strategy that never recovers must not cost a 10 s deadline per fault: the search needs many runs
      recoveryDeadlineMs: options.recoveryDeadlineMs ?? Math.max(500, intervalMs * 4),
      ...(ctx.signal ? { signal: ctx.signal } : {}),
    });
    const s = report.score;
    // a strategy whose run measured no request ranks last in the search; the search's fitness is no reported grade
    const score = s.score ?? 0;
    options.onMeasured?.({
      strategy,
      ctx,
      score,
      availability: s.availability ?? 0,
      recovery: s.recovery,
      consistency: s.consistency,
    });
    return score;
  };
}
