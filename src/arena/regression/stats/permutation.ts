/**
 * Exact permutation tests for the case a t-test cannot handle: no variation
 * (constant arms, or constant paired differences). They need no variance:
 * under the null hypothesis the labels (or the signs of paired differences)
 * are exchangeable, and the p-value is the share of relabellings whose
 * difference is at least as extreme as the one observed. Candidate − baseline.
 */

export interface ExactTestResult {
  method: 'exact permutation (difference of means)' | 'exact sign-flip permutation (paired differences)';
  /** candidate − baseline (mean of the per-pair differences when paired) */
  difference: number;
  /** two-sided exact p-value */
  p: number;
  /** the smallest two-sided p-value any data of these sizes could give: above alpha, no outcome is significant */
  min_p: number;
  /** relabellings counted (the whole permutation distribution) */
  permutations: number;
}

/** above this many relabellings a constant sample's p-value is computed in closed form, any other refused */
const MAX_ENUMERATION = 1_000_000;

/** ties in |difference| are judged with a relative tolerance, so rounding does not split equal relabellings */
const TIE = 1e-9;

/** Exact two-sample permutation test on the difference of means (all C(n1 + n2, n1) splits). */
export function exactPermutationTest(baseline: readonly number[], candidate: readonly number[]): ExactTestResult {
  const n1 = baseline.length;
  const n2 = candidate.length;
  if (n1 === 0 || n2 === 0) throw new RangeError('exact permutation test needs at least one score per arm');
  const pooled = [...baseline, ...candidate];
  const total = pooled.reduce((s, x) => s + x, 0);
  const sumC = candidate.reduce((s, x) => s + x, 0);
  const diffOf = (candidateSum: number) => candidateSum / n2 - (total - candidateSum) / n1;
  const observed = diffOf(sumC);
  const splits = binomial(n1 + n2, n2);
  const minP = Math.min(1, (n1 === n2 ? 2 : 1) / splits);
  const tol = TIE * Math.max(1, ...pooled.map(Math.abs));
  const extreme = (d: number) => Math.abs(d) >= Math.abs(observed) - tol;
  let count = 0;
  if (splits <= MAX_ENUMERATION) {
    // every choice of n2 of the pooled scores as the "candidate" arm
    const walk = (start: number, left: number, sum: number) => {
      if (left === 0) {
        if (extreme(diffOf(sum))) count++;
        return;
      }
      for (let i = start; i <= pooled.length - left; i++) walk(i + 1, left - 1, sum + pooled[i]!);
    };
    walk(0, n2, 0);
    return {
      method: 'exact permutation (difference of means)',
      difference: observed,
      p: count / splits,
      min_p: minP,
      permutations: splits,
    };
  }
  if (!isConstantArm(baseline) || !isConstantArm(candidate))
    throw new RangeError(`exact permutation test: ${splits} splits are too many to enumerate`);
  // two constant arms: the observed split is the most extreme (with its mirror when n1 = n2), or all are equal
  return {
    method: 'exact permutation (difference of means)',
    difference: observed,
    p: Math.abs(observed) <= tol ? 1 : minP,
    min_p: minP,
    permutations: splits,
  };
}

/** Exact sign-flip test on paired differences (all 2^n sign patterns). */
export function exactSignFlipTest(baseline: readonly number[], candidate: readonly number[]): ExactTestResult {
  if (baseline.length !== candidate.length || baseline.length === 0)
    throw new RangeError('exact sign-flip test needs paired samples of equal, non-zero length');
  const d = candidate.map((c, i) => c - baseline[i]!);
  const n = d.length;
  const observed = d.reduce((s, x) => s + x, 0);
  const patterns = 2 ** n;
  const minP = Math.min(1, 2 / patterns);
  const tol = TIE * Math.max(1, ...[...baseline, ...candidate].map(Math.abs)) * n;
  let p: number;
  if (patterns <= MAX_ENUMERATION) {
    let count = 0;
    for (let mask = 0; mask < patterns; mask++) {
      let sum = 0;
      for (let i = 0; i < n; i++) sum += mask & (1 << i) ? -d[i]! : d[i]!;
      if (Math.abs(sum) >= Math.abs(observed) - tol) count++;
    }
    p = count / patterns;
  } else if (isConstantArm(d)) {
    p = Math.abs(observed) <= tol ? 1 : minP;
  } else {
    throw new RangeError(`exact sign-flip test: 2^${n} sign patterns are too many to enumerate`);
  }
  return {
    method: 'exact sign-flip permutation (paired differences)',
    difference: observed / n,
    p,
    min_p: minP,
    permutations: patterns,
  };
}

/** n choose k as a double (exact below 2^53, which covers every enumerated case) */
export function binomial(n: number, k: number): number {
  const m = Math.min(k, n - k);
  let r = 1;
  for (let i = 1; i <= m; i++) r = (r * (n - m + i)) / i;
  return Math.round(r);
}

function isConstantArm(values: readonly number[]): boolean {
  const min = Math.min(...values);
  const max = Math.max(...values);
  return max - min <= TIE * Math.max(1, Math.abs(min), Math.abs(max));
}
