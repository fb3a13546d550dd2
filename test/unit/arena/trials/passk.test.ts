import { describe, expect, it } from 'vitest';
import { simulateCoverage } from '../../../../src/arena/trials/coverage.js';
import { jeffreysInterval, passK, passKInterval, passKTable } from '../../../../src/arena/trials/passk.js';
import { createRandom } from '../../../../src/shared/random.js';

/** every k-subset of the outcomes: how many are all successes, of how many */
function bruteForce(outcomes: boolean[], k: number): { all: number; total: number } {
  let all = 0;
  let total = 0;
  const pick = (start: number, left: number, ok: boolean) => {
    if (left === 0) {
      total++;
      if (ok) all++;
      return;
    }
    for (let i = start; i <= outcomes.length - left; i++) pick(i + 1, left - 1, ok && outcomes[i]!);
  };
  pick(0, k, true);
  return { all, total };
}

describe('pass^k = C(c,k)/C(n,k)', () => {
  it('equals a brute-force count of all-success k-subsets, exactly, for every k ≤ n', () => {
    for (let n = 1; n <= 12; n++)
      for (let c = 0; c <= n; c++) {
        // which trials failed does not matter to the count; put the failures first and last to be sure
        const outcomes = Array.from(
          { length: n },
          (_, i) => i >= Math.floor((n - c) / 2) && i < Math.floor((n - c) / 2) + c,
        );
        for (let k = 1; k <= n; k++) {
          const { all, total } = bruteForce(outcomes, k);
          expect(passK(n, c, k)).toBe(all / total);
        }
      }
  });

  it('is exact where doubles of C(n,k) would not be (n = 200)', () => {
    // C(199,100)/C(200,100) = 100/200 exactly
    expect(passK(200, 199, 100)).toBe(0.5);
    expect(passK(200, 200, 100)).toBe(1);
    expect(passK(200, 99, 100)).toBe(0);
  });

  it('has no value when k > n, and refuses impossible counts', () => {
    expect(passK(4, 4, 8)).toBeUndefined();
    expect(passKTable(4, 3, [1, 2, 4, 8])).toEqual({ '1': 0.75, '2': 0.5, '4': 0 });
    expect(() => passK(4, 5, 1)).toThrow(RangeError);
    expect(() => passK(0, 0, 1)).toThrow(RangeError);
  });
});

describe('the 95% interval', () => {
  it('is the Jeffreys interval on p mapped through p^k', () => {
    const [lo, hi] = jeffreysInterval(8, 5);
    // the Beta(5.5, 3.5) quantiles, as scipy.stats.beta.ppf gives them
    expect(lo).toBeCloseTo(0.294823446, 8);
    expect(hi).toBeCloseTo(0.88096082, 8);
    expect(passKInterval(8, 5, 4)).toEqual([lo ** 4, hi ** 4]);
    expect(jeffreysInterval(8, 0)[0]).toBe(0);
    expect(jeffreysInterval(8, 8)[1]).toBe(1);
  });

  it('covers the true p^k near 95% in simulation (the full 2,000-task figure: test/bench/trials-coverage.mjs)', () => {
    const { coverage } = simulateCoverage(createRandom(33), 500, 8, [1, 4, 8]);
    for (const value of Object.values(coverage)) {
      expect(value).toBeGreaterThan(0.91);
      expect(value).toBeLessThan(0.99);
    }
  });
});
