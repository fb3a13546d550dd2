import { describe, expect, it } from 'vitest';
import { calculateScore, calculateScoreV1, gradeFor } from '../../../src/arena/score.js';
import { recoverySpeed } from '../../../src/arena/recovery-speed.js';
import type { ScoreMeasurements } from '../../../src/arena/report.js';

function m(
  over: { requests?: [number, number]; recovery?: [number, number, number | null]; checks?: [number, number] } = {},
): ScoreMeasurements {
  const [total, ok] = over.requests ?? [100, 100];
  const [disruptive, recovered, mttr] = over.recovery ?? [0, 0, null];
  const [ct, cp] = over.checks ?? [4, 4];
  return {
    requests: { total, succeeded: ok, failed: total - ok },
    recovery: {
      disruptive_faults: disruptive,
      recovered,
      speed: -1,
      mttr_mean_ms: mttr,
      mttr_p50_ms: mttr,
      mttr_p95_ms: mttr,
      faults: [],
    },
    consistency: { total: ct, passed: cp, failed_checks: [] },
  };
}

describe('calculateScore', () => {
  it('is 100 / A+ when everything held and nothing was disruptive', () => {
    expect(calculateScore(m())).toMatchObject({
      score: 100,
      grade: 'A+',
      availability: 100,
      recovery: 100,
      consistency: 100,
    });
  });

  it('weights 0.40 / 0.30 / 0.30', () => {
    // availability 50, recovery: 2 of 4 recovered at MTTR 5.5 s → 0.7×50 + 0.3×50 = 50, consistency 3/4 = 75
    const r = calculateScore(m({ requests: [200, 100], recovery: [4, 2, 5500], checks: [4, 3] }));
    expect(r.availability).toBe(50);
    expect(r.recovery).toBe(50);
    expect(r.consistency).toBe(75);
    expect(r.score).toBe(0.4 * 50 + 0.3 * 50 + 0.3 * 75);
    expect(r.measurements.recovery.speed).toBe(50);
    expect(r.grade).toBe('F');
  });

  it('recovery: all recovered fast → 100; none recovered → 0', () => {
    expect(calculateScore(m({ recovery: [3, 3, 400] })).recovery).toBe(100);
    expect(calculateScore(m({ recovery: [3, 0, null] })).recovery).toBe(0);
    expect(calculateScore(m({ recovery: [2, 2, 10_000] })).recovery).toBe(70);
  });

  it('no requests in the window is no availability and no score: never a 0 that grades', () => {
    const r = calculateScore(m({ requests: [0, 0] }));
    expect(r).toMatchObject({ availability: null, score: null, grade: null });
    expect(r.availability_why).toMatch(/no workload request/);
    expect(r.interval).toBeUndefined();
  });

  it('recoverySpeed is linear between 1 s and 10 s', () => {
    expect(recoverySpeed(1000)).toBe(100);
    expect(recoverySpeed(10_000)).toBe(0);
    expect(recoverySpeed(5500)).toBe(50);
    expect(recoverySpeed(null)).toBe(0);
  });

  it('grades at the boundaries', () => {
    expect([95, 94.9, 90, 80, 70, 60, 59.9].map(gradeFor)).toEqual(['A+', 'A', 'A', 'B', 'C', 'D', 'F']);
  });

  it('V1 uses injection statistics only', () => {
    expect(calculateScoreV1({ total: 10, succeeded: 10 }, 500)).toEqual({ score: 100, grade: 'A+' });
    expect(calculateScoreV1({ total: 10, succeeded: 5 }, 20_000).score).toBe(35);
  });
});
