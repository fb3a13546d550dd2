import { describe, expect, it } from 'vitest';
import {
  groupSequentialDesign,
  lookSchedule,
  obrienFlemingSpending,
  pocockSpending,
} from '../../../../src/arena/regression/sequential.js';

describe('Lan–DeMets O’Brien–Fleming design', () => {
  it('spends nothing at t = 0 and all of alpha at t = 1, increasing between', () => {
    expect(obrienFlemingSpending(0, 0.05)).toBe(0);
    expect(obrienFlemingSpending(1, 0.05)).toBe(0.05);
    // per side 2(1 − Φ(2.2414 · √2)) = 0.001525
    expect(obrienFlemingSpending(0.5, 0.05)).toBeCloseTo(2 * 0.001525, 5);
  });

  it('schedules looks at minRuns, every batch after, and maxRuns', () => {
    expect(lookSchedule(5, 5, 20)).toEqual([5, 10, 15, 20]);
    expect(lookSchedule(6, 4, 15)).toEqual([6, 10, 14, 15]);
    expect(lookSchedule(10, 5, 10)).toEqual([10]);
  });

  it("Pocock-type spending: α·ln(1 + (e − 1)t), boundaries nearly flat at Pocock's constants (2.361 for 4 looks, 2.413 for 5)", () => {
    expect(pocockSpending(0, 0.05)).toBe(0);
    expect(pocockSpending(1, 0.05)).toBe(0.05);
    expect(pocockSpending(0.5, 0.05)).toBeCloseTo(0.05 * Math.log(1 + (Math.E - 1) / 2), 12);
    for (const [looks, constant] of [
      [4, 2.361],
      [5, 2.413],
    ] as const) {
      const z = groupSequentialDesign({
        alpha: 0.05,
        minRuns: 10,
        batchSize: 10,
        maxRuns: 10 * looks,
        spending: 'pocock',
      }).looks.map((l) => l.z);
      expect(z).toHaveLength(looks);
      for (const b of z) expect(Math.abs(b - constant)).toBeLessThan(0.03);
    }
    expect(() =>
      groupSequentialDesign({ alpha: 0.05, minRuns: 5, batchSize: 5, maxRuns: 20, spending: 'linear' as never }),
    ).toThrow(/spending/);
  });

  it('reproduces the published boundaries (gsDesign / Jennison & Turnbull, two-sided α = 0.05)', () => {
    const k4 = groupSequentialDesign({ alpha: 0.05, minRuns: 10, batchSize: 10, maxRuns: 40 }).looks.map((l) => l.z);
    [4.3326, 2.9631, 2.359, 2.0141].forEach((z, i) => expect(k4[i]).toBeCloseTo(z, 3));
    const k5 = groupSequentialDesign({ alpha: 0.05, minRuns: 10, batchSize: 10, maxRuns: 50 }).looks.map((l) => l.z);
    [4.877, 3.357, 2.68, 2.29, 2.031].forEach((z, i) => expect(k5[i]).toBeCloseTo(z, 2));
  });

  it('rejects an impossible design', () => {
    expect(() => groupSequentialDesign({ alpha: 0, minRuns: 5, batchSize: 5, maxRuns: 20 })).toThrow(/alpha/);
    expect(() => groupSequentialDesign({ alpha: 0.05, minRuns: 30, batchSize: 5, maxRuns: 20 })).toThrow(/maxRuns/);
    expect(() => groupSequentialDesign({ alpha: 0.05, minRuns: 5, batchSize: 0, maxRuns: 20 })).toThrow(/batchSize/);
  });
});
