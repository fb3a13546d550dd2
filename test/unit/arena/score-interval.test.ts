import { describe, expect, it } from 'vitest';
import {
  availabilityOf,
  calculateScore,
  consistencyOf,
  gateOutcome,
  gradeFor,
  recoveryOf,
  round1,
} from '../../../src/arena/score.js';
import { wilsonInterval } from '../../../src/arena/score-interval.js';
import type { FaultRecovery, ScoreMeasurements } from '../../../src/arena/report.js';

function m(
  total: number,
  ok: number,
  disruptive: number,
  recovered: number,
  mttr: number | null,
  checks: [number, number],
  times: number[] = [],
): ScoreMeasurements {
  const faults: FaultRecovery[] = times.map((t, i) => ({
    action_id: `a${i}`,
    type: 'kill_agent',
    target: 'agent-1',
    recovered: true,
    recovery_ms: t,
  }));
  return {
    requests: { total, succeeded: ok, failed: total - ok },
    recovery: {
      disruptive_faults: disruptive,
      recovered,
      speed: 0,
      mttr_mean_ms: mttr,
      mttr_p50_ms: mttr,
      mttr_p95_ms: mttr,
      faults,
    },
    consistency: { total: checks[0], passed: checks[1], failed_checks: [] },
  };
}

describe('the score is rounded once, at the end', () => {
  it('never lifts a grade over a grid of measurements where rounding each dimension first did', () => {
    let lifted = 0;
    let cases = 0;
    for (let ok = 0; ok <= 997; ok++) {
      for (const [recovered, mttr] of [
        [0, null],
        [1, 4700],
        [2, 2350],
        [3, 1234],
      ] as const) {
        for (const passed of [5, 6, 7]) {
          const meas = m(997, ok, 3, recovered, mttr, [7, passed]);
          const exact = 0.4 * availabilityOf(meas) + 0.3 * recoveryOf(meas) + 0.3 * consistencyOf(meas);
          const report = calculateScore(meas);
          cases++;
          expect(report.grade).toBe(gradeFor(exact + 1e-9));
          expect(report.score).toBeLessThanOrEqual(exact + 1e-9);
          expect(exact - report.score!).toBeLessThan(0.1);
          // what the old code did: dimensions rounded to 0.1, then combined and rounded again
          const old = round1(
            0.4 * round1(availabilityOf(meas)) + 0.3 * round1(recoveryOf(meas)) + 0.3 * round1(consistencyOf(meas)),
          );
          if (gradeFor(old) !== gradeFor(exact + 1e-9)) lifted++;
        }
      }
    }
    expect(cases).toBe(998 * 4 * 3);
    expect(lifted).toBeGreaterThan(0); // the grid does reach the boundaries the old rounding crossed
  });

  it('binary noise does not cost 0.1: 90/90/90 is 90.0, an A', () => {
    // availability 90, recovery 0.7 × 100 + 0.3 × 66.7 = 90, consistency 90
    const r = calculateScore(m(100, 90, 1, 1, 4000, [10, 9]));
    expect([r.availability, r.recovery, r.consistency]).toEqual([90, 90, 90]);
    expect(r.score).toBe(90);
    expect(r.grade).toBe('A');
    // exactly 0.4 × 89.9 + 30 + 27 = 92.96: shown as 92.9, rounded down once, so a shown score is never above the exact one
    const near = calculateScore(m(10_000, 8_990, 0, 0, null, [10, 9]));
    expect(near.score).toBe(92.9);
  });
});

describe('95% intervals', () => {
  it('Wilson interval matches published values', () => {
    // Newcombe (1998), 81 of 263: 0.2553–0.3662
    const w = wilsonInterval(81, 263);
    expect(w.low).toBeCloseTo(0.2553, 4);
    expect(w.high).toBeCloseTo(0.3662, 4);
    expect(wilsonInterval(10, 10).high).toBeCloseTo(1, 12);
    expect(wilsonInterval(0, 0)).toEqual({ low: 0, high: 1 });
  });

  it('the report carries availability and score intervals around the score, rounded outwards', () => {
    const r = calculateScore(m(400, 388, 3, 3, 1500, [4, 4], [900, 1500, 2100]));
    const i = r.interval!;
    expect(i.confidence).toBe(0.95);
    expect(i.availability.low).toBeLessThan(r.availability!);
    expect(i.availability.high).toBeGreaterThan(r.availability!);
    expect(i.score.low).toBeLessThanOrEqual(r.score!);
    expect(i.score.high).toBeGreaterThanOrEqual(r.score!);
    expect(i.recovery_times).toBe(3);
    // more requests, narrower availability interval
    const big = calculateScore(m(40_000, 38_800, 3, 3, 1500, [4, 4], [900, 1500, 2100])).interval!;
    expect(big.availability.high - big.availability.low).toBeLessThan(i.availability.high - i.availability.low);
  });

  it('--gate lower compares the lower bound, and says so', () => {
    const r = calculateScore(m(200, 196, 2, 2, 800, [4, 4], [700, 900]));
    const min = Math.floor(r.score!);
    expect(gateOutcome(r, min)).toEqual({ min_score: min, score: r.score, passed: true });
    const lower = gateOutcome(r, min, 'lower');
    expect(lower).toEqual({
      min_score: min,
      score: r.score,
      passed: r.interval!.score.low >= min,
      on: 'lower',
      value: r.interval!.score.low,
    });
    expect(lower!.passed).toBe(false);
  });
});
