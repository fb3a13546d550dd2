/**
 * Simulation of the adaptive design on synthetic paired data: seeded, so the
 * numbers are fixed, and large enough (thousands of trials) that the bounds are
 * several standard errors wide.
 */
import { describe, expect, it } from 'vitest';
import {
  evaluateLook,
  groupSequentialDesign,
  type SequentialDesign,
} from '../../../../src/arena/regression/sequential.js';
import { pairedTTest } from '../../../../src/arena/regression/stats/t-test.js';
import { createRandom, type Random } from '../../../../src/shared/random.js';

function normal(random: Random): number {
  // Box–Muller
  const u = 1 - random.next();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random.next());
}

interface TrialOutcome {
  rejected: boolean;
  naiveRejected: boolean;
  runs: number;
  sign: number;
}

/** one paired experiment: per-seed scores share a seed effect, the candidate adds `effect` */
function trial(design: SequentialDesign, random: Random, effect: number): TrialOutcome {
  const maxRuns = design.looks[design.looks.length - 1]!.n;
  const baseline: number[] = [];
  const candidate: number[] = [];
  for (let i = 0; i < maxRuns; i++) {
    const seedEffect = 80 + 5 * normal(random);
    baseline.push(seedEffect + 3 * normal(random));
    candidate.push(seedEffect + effect + 3 * normal(random));
  }
  let naiveRejected = false;
  let outcome: TrialOutcome | undefined;
  design.looks.forEach((look, index) => {
    const test = pairedTTest(baseline.slice(0, look.n), candidate.slice(0, look.n));
    if (test.p < design.alpha) naiveRejected = true; // peeking: stop at the first p < α
    if (outcome) return;
    const decision = evaluateLook(design, index, test.p, Math.sign(test.difference)).decision;
    if (decision === 'reject')
      outcome = { rejected: true, naiveRejected: false, runs: look.n, sign: Math.sign(test.difference) };
    else if (decision === 'futility' || decision === 'accept')
      outcome = { rejected: false, naiveRejected: false, runs: look.n, sign: 0 };
  });
  return { ...outcome!, naiveRejected };
}

function simulate(design: SequentialDesign, seed: number, trials: number, effect: number) {
  const random = createRandom(seed);
  let rejected = 0;
  let naive = 0;
  let runs = 0;
  let wrongSign = 0;
  for (let i = 0; i < trials; i++) {
    const o = trial(design, random, effect);
    if (o.rejected) rejected++;
    if (o.rejected && effect !== 0 && o.sign !== Math.sign(effect)) wrongSign++;
    if (o.naiveRejected) naive++;
    runs += o.runs;
  }
  return { rate: rejected / trials, naive: naive / trials, meanRuns: runs / trials, wrongSign };
}

describe('adaptive stopping, simulated', () => {
  const alpha = 0.05;
  const trials = 4000;
  // looks at 10, 15, 20, 25, 30, 35, 40 runs per arm
  const design = groupSequentialDesign({ alpha, minRuns: 10, batchSize: 5, maxRuns: 40, futilityPower: 0 });
  const withFutility = groupSequentialDesign({ alpha, minRuns: 10, batchSize: 5, maxRuns: 40, futilityPower: 0.1 });

  it('A/A: the false-positive rate stays at alpha, while naive peeking at the same looks exceeds it', () => {
    const result = simulate(design, 20261122, trials, 0);
    // standard error of a rate of 0.05 over 4000 trials is 0.0034: ±0.015 is over 4 of them
    expect(result.rate).toBeGreaterThan(alpha - 0.015);
    expect(result.rate).toBeLessThan(alpha + 0.015);
    expect(result.naive).toBeGreaterThan(1.6 * alpha);
    expect(result.naive).toBeGreaterThan(result.rate + 0.04);
  });

  it('A/A with the non-binding futility stop: false positives at most alpha, and most runs stop early', () => {
    const result = simulate(withFutility, 7, trials, 0);
    expect(result.rate).toBeLessThan(alpha + 0.015);
    expect(result.meanRuns).toBeLessThan(25);
  });

  it('a real effect (0.6 sd of the per-seed difference) is found with high power, before maxRuns on average', () => {
    // a fixed test at 40 runs has power 0.97 here; the sequential design gives little of it up
    const effect = 3 * Math.SQRT2 * 0.6;
    const noFutility = simulate(design, 99, 2000, effect);
    expect(noFutility.rate).toBeGreaterThan(0.92);
    expect(noFutility.wrongSign).toBe(0);
    expect(noFutility.meanRuns).toBeLessThan(30);
    const result = simulate(withFutility, 99, 2000, effect);
    expect(result.rate).toBeGreaterThan(0.84);
    expect(result.meanRuns).toBeLessThan(27);
  });

  it("Pocock spending: A/A stays at alpha; a real effect stops sooner on average than with O'Brien-Fleming", () => {
    const pocock = groupSequentialDesign({ alpha, minRuns: 10, batchSize: 5, maxRuns: 40, spending: 'pocock' });
    const aa = simulate(pocock, 20261123, trials, 0);
    expect(aa.rate).toBeGreaterThan(alpha - 0.015);
    expect(aa.rate).toBeLessThan(alpha + 0.015);
    const effect = 3 * Math.SQRT2 * 0.6;
    const fast = simulate(pocock, 99, 2000, effect);
    const strict = simulate(design, 99, 2000, effect);
    expect(fast.wrongSign).toBe(0);
    expect(fast.meanRuns).toBeLessThan(strict.meanRuns - 2);
  });

  it('a large effect is found almost always, in under half the maximum runs', () => {
    const result = simulate(withFutility, 5, 1000, 5);
    expect(result.rate).toBeGreaterThan(0.99);
    expect(result.meanRuns).toBeLessThan(20);
  });
});
