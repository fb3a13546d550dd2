import { describe, expect, it } from 'vitest';
import { noncentralTCdf } from '../../../../src/arena/regression/stats/noncentral-t.js';
import { studentTCdf, studentTQuantile, normalCdf } from '../../../../src/arena/regression/stats/distributions.js';
import { minimumDetectableDifference, twoSidedPower } from '../../../../src/arena/regression/stats/power.js';
import { createRandom } from '../../../../src/shared/random.js';

/** seeded Monte Carlo of (Z + δ) / √(χ²_ν / ν) for integer ν */
function simulatedPower(df: number, delta: number, critical: number, draws = 200_000): number {
  const random = createRandom(12345);
  const normal = () => Math.sqrt(-2 * Math.log(1 - random.next())) * Math.cos(2 * Math.PI * random.next());
  let hits = 0;
  for (let i = 0; i < draws; i++) {
    let chi = 0;
    for (let k = 0; k < df; k++) chi += normal() ** 2;
    const t = (normal() + delta) / Math.sqrt(chi / df);
    if (Math.abs(t) > critical) hits++;
  }
  return hits / draws;
}

describe('noncentral t', () => {
  it('reduces to the central t at δ = 0 and to the normal for large df', () => {
    for (const [t, df] of [
      [0.5, 1],
      [2, 3],
      [-1.7, 4.5],
      [3, 30],
    ] as const)
      expect(noncentralTCdf(t, df, 0)).toBeCloseTo(studentTCdf(t, df), 10);
    expect(noncentralTCdf(1.3, 1e6, 2)).toBeCloseTo(normalCdf(1.3 - 2), 4);
  });

  it('is monotone in t and in δ', () => {
    expect(noncentralTCdf(1, 3, 2)).toBeLessThan(noncentralTCdf(2, 3, 2));
    expect(noncentralTCdf(1, 3, 2)).toBeLessThan(noncentralTCdf(1, 3, 1));
  });

  it('power at small df matches simulation, where the shifted central t was far off', () => {
    for (const [df, delta] of [
      [1, 8],
      [2, 4.3],
      [3, 3],
      [4, 2.5],
    ] as const) {
      const critical = studentTQuantile(0.975, df);
      const exact = twoSidedPower(delta, 1, df, 0.05);
      expect(Math.abs(exact - simulatedPower(df, delta, critical)), `df ${df} δ ${delta}`).toBeLessThan(0.006);
    }
  });

  it('the minimum detectable difference has 80% power; none without variation', () => {
    const d = minimumDetectableDifference(1.5, 3, 0.05);
    expect(twoSidedPower(d, 1.5, 3, 0.05)).toBeCloseTo(0.8, 6);
    expect(twoSidedPower(5, 0, 3, 0.05)).toBeNaN();
    expect(minimumDetectableDifference(0, 3, 0.05)).toBeNaN();
  });
});
