import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyzeScores } from '../../../../src/arena/regression/analysis.js';
import { exactPermutationTest, exactSignFlipTest } from '../../../../src/arena/regression/stats/permutation.js';

describe('exact permutation tests decide where the t-test has no variance', () => {
  it('counts the permutation distribution exactly', () => {
    // 3 + 3 fully separated: 2 of C(6, 3) = 20 splits are as extreme
    expect(exactPermutationTest([100, 100, 100], [62.5, 62.5, 62.5]).p).toBeCloseTo(0.1, 12);
    expect(exactPermutationTest([100, 100, 100, 100], [62.5, 62.5, 62.5, 62.5]).p).toBeCloseTo(2 / 70, 12);
    // unequal sizes: no mirror split, 1 of C(5, 2) = 10
    expect(exactPermutationTest([1, 1], [2, 2, 2]).p).toBeCloseTo(0.1, 12);
    expect(exactPermutationTest([5, 5, 5], [5, 5, 5]).p).toBe(1);
    // sign flips: 2 of 2^6 patterns
    expect(exactSignFlipTest([1, 2, 3, 4, 5, 6], [0, 1, 2, 3, 4, 5]).p).toBeCloseTo(2 / 64, 12);
    // too many splits to enumerate: two constant arms in closed form
    expect(exactPermutationTest(Array(20).fill(1), Array(20).fill(2)).p).toBeLessThan(1e-9);
  });

  it('unequal constant arms with enough runs: a significant regression, decided by the exact test', () => {
    const a = analyzeScores([100, 100, 100, 100], [62.5, 62.5, 62.5, 62.5]);
    expect(a.decision).toBe('candidate worse');
    expect(a.method).toBe('exact permutation (difference of means)');
    expect(a.p_value).toBeCloseTo(2 / 70, 12);
    expect(a.test).toBe('welch');
    const paired = analyzeScores([70, 80, 90, 60, 50, 40], [70.5, 80.5, 90.5, 60.5, 50.5, 40.5], { paired: true });
    expect(paired.decision).toBe('candidate better');
    expect(paired.method).toBe('exact sign-flip permutation (paired differences)');
  });

  it('equal constant arms: no difference; too few runs: cannot decide, with the runs needed', () => {
    const same = analyzeScores([100, 100, 100], [100, 100, 100]);
    expect(same.decision).toBe('no significant difference');
    expect(same.p_value).toBe(1);
    const few = analyzeScores([100, 100, 100], [62.5, 62.5, 62.5]);
    expect(few.decision).toBe('cannot decide');
    expect(few.exact_test?.p).toBeCloseTo(0.1, 12);
    expect(few.undecided_reason).toMatch(/smallest p it can give is 0\.1.*at least 4 runs per arm can decide/);
  });

  it('the exact p-value is a probability and does not depend on which arm is called baseline', () => {
    const arm = fc.array(fc.double({ min: -1000, max: 1000, noNaN: true }), { minLength: 1, maxLength: 7 });
    fc.assert(
      fc.property(arm, arm, (a, b) => {
        const ab = exactPermutationTest(a, b);
        const ba = exactPermutationTest(b, a);
        expect(ab.p).toBeGreaterThanOrEqual(0);
        expect(ab.p).toBeLessThanOrEqual(1);
        expect(ab.p).toBeGreaterThanOrEqual(ab.min_p - 1e-12);
        expect(ba.p).toBe(ab.p);
      }),
    );
    const pairs = fc.array(
      fc.tuple(fc.double({ min: -1000, max: 1000, noNaN: true }), fc.double({ min: -1000, max: 1000, noNaN: true })),
      {
        minLength: 1,
        maxLength: 10,
      },
    );
    fc.assert(
      fc.property(pairs, (ps) => {
        const a = ps.map((p) => p[0]);
        const b = ps.map((p) => p[1]);
        const ab = exactSignFlipTest(a, b);
        expect(ab.p).toBeGreaterThan(0);
        expect(ab.p).toBeLessThanOrEqual(1);
        expect(exactSignFlipTest(b, a).p).toBe(ab.p);
      }),
    );
  });
});
