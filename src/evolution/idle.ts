/**
 * runIdleEvolution: the same search as runEvolution, run at low priority —
 * it evaluates one strategy at a time, only while the runtime is idle, and
 * before each evaluation it yields the event loop and waits (polling) while
 * there is real work. Work that arrives mid-evaluation is not preempted (a
 * survival run on its own target is short); the next evaluation waits.
 */
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { systemClock, type Clock } from '../shared/clock.js';
import { CancelledError } from '../shared/errors.js';
import { runEvolution, type EvolutionOptions, type EvolutionResult } from './ga.js';

export interface IdleEvolutionOptions extends Omit<EvolutionOptions, 'beforeEvaluation' | 'concurrency'> {
  /** true when there is no real work (see runtimeIdleProbe) */
  isIdle: () => boolean;
  /** how often to look again while busy (ms, default 50) */
  pollIntervalMs?: number;
  clock?: Clock;
}

export interface IdleEvolutionResult extends EvolutionResult {
  /** evaluations that had to wait for the runtime to become idle */
  yields: number;
  /** total time spent waiting for idleness (ms, by the given clock) */
  waited_ms: number;
}

export async function runIdleEvolution(options: IdleEvolutionOptions): Promise<IdleEvolutionResult> {
  const clock = options.clock ?? systemClock;
  const poll = options.pollIntervalMs ?? 50;
  let yields = 0;
  let waited = 0;
  const result = await runEvolution({
    ...options,
    concurrency: 1,
    beforeEvaluation: async () => {
      await yieldToLoop();
      if (options.isIdle()) return;
      yields++;
      const started = clock.now();
      while (!options.isIdle()) {
        if (options.signal?.aborted) throw new CancelledError('idle evolution cancelled');
        await clock.sleep(poll, options.signal);
      }
      waited += clock.now() - started;
    },
  });
  return { ...result, yields, waited_ms: Math.round(waited) };
}

/**
 * Idle for an embedded runtime: at most `maxInFlight` workload runs in flight
 * and no extra probe saying otherwise (e.g. an arena run in progress).
 */
export function runtimeIdleProbe(
  runtime: { stats(): { in_flight: number } },
  options: { maxInFlight?: number; busy?: () => boolean } = {},
): () => boolean {
  const max = options.maxInFlight ?? 2;
  return () => runtime.stats().in_flight <= max && !(options.busy?.() ?? false);
}
