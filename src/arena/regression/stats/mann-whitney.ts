/**
 * Mann–Whitney U (Wilcoxon rank-sum) test: the distribution-free check next to
 * the t-tests. Ranks come from simple-statistics' wilcoxonRankSum (mid-ranks for
 * ties). The p-value is exact when there are no ties and both samples are under
 * 50 (as R's wilcox.test does), otherwise the normal approximation with the tie
 * correction of the variance and a continuity correction.
 */
import { wilcoxonRankSum } from 'simple-statistics';
import { normalSf } from './distributions.js';
import { checkSample } from './summary.js';

export interface MannWhitneyResult {
  /** U of the candidate: how many (candidate, baseline) pairs the candidate wins, ties counting ½ */
  u: number;
  /** U of the baseline: n₁n₂ − u */
  u_baseline: number;
  /** two-sided p-value */
  p: number;
  method: 'exact' | 'normal';
  /** z of the normal approximation (with continuity correction), when used */
  z?: number;
  ties: boolean;
  /** probability of superiority: P(candidate > baseline) + ½ P(tie) = u / (n₁n₂) */
  common_language: number;
}

export type MannWhitneyMethod = 'auto' | 'exact' | 'normal';

export function mannWhitneyU(
  baseline: readonly number[],
  candidate: readonly number[],
  method: MannWhitneyMethod = 'auto',
): MannWhitneyResult {
  checkSample(baseline, 'baseline', 1);
  checkSample(candidate, 'candidate', 1);
  const n1 = candidate.length;
  const n2 = baseline.length;
  const rankSum = wilcoxonRankSum(candidate as number[], baseline as number[]);
  const u = rankSum - (n1 * (n1 + 1)) / 2;
  const uOther = n1 * n2 - u;
  const tieSizes = tieGroupSizes([...candidate, ...baseline]);
  const ties = tieSizes.some((t) => t > 1);
  const useExact = method === 'exact' || (method === 'auto' && !ties && n1 < 50 && n2 < 50);
  const big = Math.max(u, uOther);
  const base = { u, u_baseline: uOther, ties, common_language: u / (n1 * n2) };
  if (useExact) {
    if (ties) throw new RangeError('the exact Mann–Whitney distribution assumes no ties; use the normal method');
    return { ...base, p: Math.min(1, 2 * exactUpperTail(n1, n2, big)), method: 'exact' };
  }
  const n = n1 + n2;
  const tieTerm = tieSizes.reduce((sum, t) => sum + (t * t * t - t), 0);
  const variance = ((n1 * n2) / 12) * (n + 1 - tieTerm / (n * (n - 1)));
  if (!(variance > 0)) return { ...base, p: 1, method: 'normal', z: 0 };
  const z = (big - (n1 * n2) / 2 - 0.5) / Math.sqrt(variance);
  return { ...base, p: Math.min(1, 2 * normalSf(z)), method: 'normal', z };
}

function tieGroupSizes(values: number[]): number[] {
  const counts = new Map<number, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts.values()];
}

/**
 * P(U ≥ u) under H0 with no ties: the number of arrangements with U = k obeys
 * f(m, n, k) = f(m − 1, n, k − n) + f(m, n − 1, k); counted in doubles (relative
 * precision is all a p-value needs) over all C(m + n, m) equally likely orders.
 */
function exactUpperTail(m: number, n: number, u: number): number {
  const maxU = m * n;
  // prev[j] is the frequency vector for (i − 1, j); cur[j] for (i, j)
  let prev: Float64Array[] = [];
  for (let j = 0; j <= n; j++) prev.push(unit(maxU));
  for (let i = 1; i <= m; i++) {
    const cur: Float64Array[] = [unit(maxU)];
    for (let j = 1; j <= n; j++) {
      const row = new Float64Array(maxU + 1);
      const left = prev[j]!;
      const down = cur[j - 1]!;
      for (let k = 0; k <= i * j; k++) row[k] = (k >= j ? left[k - j]! : 0) + down[k]!;
      cur.push(row);
    }
    prev = cur;
  }
  const freq = prev[n]!;
  let total = 0;
  let tail = 0;
  for (let k = 0; k <= maxU; k++) {
    total += freq[k]!;
    if (k >= u) tail += freq[k]!;
  }
  return tail / total;
}

function unit(size: number): Float64Array {
  const a = new Float64Array(size + 1);
  a[0] = 1;
  return a;
}
