/** Standardised effect sizes for candidate − baseline. */
import { lnGamma } from './special.js';
import { checkSample, summarize } from './summary.js';

export interface EffectSize {
  /** Cohen's d: difference of means over the pooled standard deviation */
  cohens_d: number;
  /** Hedges' g: d with the exact small-sample bias correction J(n₁ + n₂ − 2) */
  hedges_g: number;
  /** d_z: mean per-pair difference over its standard deviation (paired samples only) */
  paired_dz?: number;
  /** |g| in words, after Cohen: negligible < 0.2 ≤ small < 0.5 ≤ medium < 0.8 ≤ large */
  magnitude: 'negligible' | 'small' | 'medium' | 'large';
}

/** J(m) = Γ(m/2) / (√(m/2) Γ((m−1)/2)), Hedges' exact correction factor */
export function hedgesCorrection(df: number): number {
  if (!(df > 1)) return Number.NaN;
  return Math.exp(lnGamma(df / 2) - 0.5 * Math.log(df / 2) - lnGamma((df - 1) / 2));
}

export function effectSize(baseline: readonly number[], candidate: readonly number[], paired = false): EffectSize {
  checkSample(baseline, 'baseline', 2);
  checkSample(candidate, 'candidate', 2);
  const a = summarize(baseline);
  const b = summarize(candidate);
  const df = a.n + b.n - 2;
  const pooled = Math.sqrt(((a.n - 1) * a.sd ** 2 + (b.n - 1) * b.sd ** 2) / df);
  const diff = b.mean - a.mean;
  const d = standardise(diff, pooled);
  const g = d * hedgesCorrection(df);
  const result: EffectSize = { cohens_d: d, hedges_g: g, magnitude: magnitude(g) };
  if (paired && baseline.length === candidate.length) {
    const diffs = summarize(candidate.map((c, i) => c - baseline[i]!));
    result.paired_dz = standardise(diffs.mean, diffs.sd);
  }
  return result;
}

function standardise(diff: number, sd: number): number {
  if (sd > 0) return diff / sd;
  return diff === 0 ? 0 : Math.sign(diff) * Infinity;
}

function magnitude(g: number): EffectSize['magnitude'] {
  const abs = Math.abs(g);
  if (abs < 0.2 || Number.isNaN(abs)) return 'negligible';
  if (abs < 0.5) return 'small';
  if (abs < 0.8) return 'medium';
  return 'large';
}
