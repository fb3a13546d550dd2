import { describe, expect, it } from 'vitest';
import { runIdleEvolution, runtimeIdleProbe } from '../../../src/evolution/idle.js';
import { RECOVERY_OFF_STRATEGY, type Strategy } from '../../../src/runtime/strategy.js';
import { ManualClock } from '../../../src/shared/clock.js';

const fitness = (s: Strategy) => [s.supervisor, s.election, s.failover, s.dag].filter((m) => m.enabled).length * 10;

describe('runIdleEvolution', () => {
  it('evaluates only while idle and yields to real work', async () => {
    const clock = new ManualClock();
    let busy = true;
    const evaluatedWhileBusy: boolean[] = [];
    const run = runIdleEvolution({
      generations: 3,
      population: 4,
      seed: 2,
      initial: RECOVERY_OFF_STRATEGY,
      clock,
      pollIntervalMs: 10,
      isIdle: () => !busy,
      fitness: (s) => {
        evaluatedWhileBusy.push(busy);
        return fitness(s);
      },
    });
    // busy: nothing is evaluated however long it lasts (let the search's own yield run first)
    await new Promise((r) => setImmediate(r));
    for (let i = 0; i < 5; i++) await clock.advance(10);
    expect(evaluatedWhileBusy).toHaveLength(0);
    busy = false;
    await clock.advance(10);
    // later evaluations yield to the event loop too: keep turning it until the search ends
    let done = false;
    void run.finally(() => (done = true));
    while (!done) {
      await new Promise((r) => setImmediate(r));
      await clock.advance(10);
    }
    const result = await run;
    expect(evaluatedWhileBusy.length).toBe(result.evaluations);
    expect(evaluatedWhileBusy.every((b) => !b)).toBe(true);
    expect(result.yields).toBeGreaterThanOrEqual(1);
    expect(result.waited_ms).toBeGreaterThanOrEqual(50);
    expect(result.generations).toHaveLength(3);
  });

  it('pauses again when real work arrives mid-search', async () => {
    const clock = new ManualClock();
    let busy = false;
    let evaluations = 0;
    const run = runIdleEvolution({
      generations: 2,
      population: 4,
      seed: 9,
      initial: RECOVERY_OFF_STRATEGY,
      clock,
      pollIntervalMs: 10,
      isIdle: () => !busy,
      fitness: (s) => {
        evaluations++;
        // real work arrives while the second evaluation runs
        if (evaluations === 2) busy = true;
        return fitness(s);
      },
    });
    let done = false;
    void run.finally(() => (done = true));
    for (let i = 0; i < 20 && !done; i++) {
      await new Promise((r) => setImmediate(r));
      await clock.advance(10);
    }
    // the search waits behind the work: still two evaluations
    expect(evaluations).toBe(2);
    expect(done).toBe(false);
    busy = false;
    while (!done) {
      await new Promise((r) => setImmediate(r));
      await clock.advance(10);
    }
    const result = await run;
    expect(result.evaluations).toBe(evaluations);
    expect(result.yields).toBe(1);
    expect(result.waited_ms).toBeGreaterThanOrEqual(100);
  });

  it('probes a runtime by its in-flight work', () => {
    let inFlight = 5;
    const idle = runtimeIdleProbe({ stats: () => ({ in_flight: inFlight }) }, { maxInFlight: 1 });
    expect(idle()).toBe(false);
    inFlight = 1;
    expect(idle()).toBe(true);
    expect(runtimeIdleProbe({ stats: () => ({ in_flight: 0 }) }, { busy: () => true })()).toBe(false);
  });
});
