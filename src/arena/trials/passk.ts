/**
 * pass^k (DESIGN §14): the chance that all k tries of a task succeed.
 *
 * - Estimate: C(c,k)/C(n,k) over c successes in n trials, the share of the k-subsets of the trials that
 *   all succeeded. Averaged over every way to pick k of the n trials it is unbiased for p^k (τ-bench).
 *   It is computed as an exact rational (BigInt) and rounded once, so it equals a brute-force count.
 * - 95% interval: the Jeffreys interval on the per-trial success rate p (the equal-tailed quantiles of
 *   the Beta(c+½, n−c+½) posterior), mapped through p ↦ p^k. With independent trials the true pass^k is
 *   p^k and the map is increasing, so the interval covers p^k exactly when it covers p: the coverage is
 *   Jeffreys' own, close to nominal on average (Brown, Cai & DasGupta 2001), and the bounds are the
 *   posterior's quantiles of p^k. Mapping an interval through the estimator instead would be wrong for
 *   k > 1 (it is a function of c, not of p). The unbiased estimate can lie below the interval (it is 0
 *   whenever c < k, while p^k > 0 stays plausible): the two answer different questions, and widening the
 *   interval to hold the estimate would push its coverage past nominal (97.4% at n = k = 8). Caveat: trials of one task are taken as independent, identically distributed tries.
 */
import { regularizedBeta } from '../regression/stats/special.js';

export const PASS_K_CONFIDENCE = 0.95;

function binomial(n: number, k: number): bigint {
  if (k < 0 || k > n) return 0n;
  let out = 1n;
  for (let i = 0; i < k; i++) out = (out * BigInt(n - i)) / BigInt(i + 1);
  return out;
}

/** num/den rounded once to a double (both may exceed 2^53) */
function ratio(num: bigint, den: bigint): number {
  if (num === 0n) return 0;
  const shift = BigInt(Math.max(0, den.toString(2).length - num.toString(2).length + 64));
  const scaled = (num << shift) / den;
  // scaled has ≥ 64 significant bits: one rounding to 53 here, then an exact power-of-two division
  return Number(scaled) / 2 ** Number(shift);
}

function checkCounts(n: number, c: number, k: number): void {
  if (!Number.isInteger(n) || !Number.isInteger(c) || !Number.isInteger(k) || n < 1 || c < 0 || c > n || k < 1)
    throw new RangeError(`pass^k needs integers n ≥ 1, 0 ≤ c ≤ n, k ≥ 1 (got n=${n}, c=${c}, k=${k})`);
}

/** C(c,k)/C(n,k); undefined when k > n (k tries cannot be picked from n trials) */
export function passK(n: number, c: number, k: number): number | undefined {
  checkCounts(n, c, k);
  if (k > n) return undefined;
  if (c === n) return 1;
  return ratio(binomial(c, k), binomial(n, k));
}

/** the q-quantile of Beta(a, b), by bisection on the regularized incomplete beta (monotone in x) */
function betaQuantile(q: number, a: number, b: number): number {
  let lo = 0;
  let hi = 1;
  for (let i = 0; i < 80; i++) {
    const mid = (lo + hi) / 2;
    if (regularizedBeta(mid, a, b) < q) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/** Jeffreys interval on p: [0, ·] when c = 0 and [·, 1] when c = n (the usual boundary convention) */
export function jeffreysInterval(n: number, c: number, confidence = PASS_K_CONFIDENCE): [number, number] {
  checkCounts(n, c, 1);
  const tail = (1 - confidence) / 2;
  const low = c === 0 ? 0 : betaQuantile(tail, c + 0.5, n - c + 0.5);
  const high = c === n ? 1 : betaQuantile(1 - tail, c + 0.5, n - c + 0.5);
  return [low, high];
}

/** the 95% interval for pass^k (see the top of this file); undefined when k > n */
export function passKInterval(
  n: number,
  c: number,
  k: number,
  confidence = PASS_K_CONFIDENCE,
): [number, number] | undefined {
  if (passK(n, c, k) === undefined) return undefined;
  const [low, high] = jeffreysInterval(n, c, confidence);
  return [low ** k, high ** k];
}

/** pass^k for each k, keyed by k as the JSON contract spells it; k > n is left out */
export function passKTable(n: number, c: number, ks: readonly number[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const k of ks) {
    if (k > n) continue; // also an arm a stop or Ctrl-C left with no try at all (n = 0)
    const value = passK(n, c, k);
    if (value !== undefined) out[String(k)] = value;
  }
  return out;
}

export function passKIntervalTable(n: number, c: number, ks: readonly number[]): Record<string, [number, number]> {
  const out: Record<string, [number, number]> = {};
  for (const k of ks) {
    if (k > n) continue;
    const bounds = passKInterval(n, c, k);
    if (bounds) out[String(k)] = bounds;
  }
  return out;
}
