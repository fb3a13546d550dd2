/**
 * Exact normal and Student-t distributions: CDF, survival function, density
 * and quantile. The t CDF is the regularized incomplete beta function
 * (special.ts); quantiles are found by safeguarded Newton iteration on it.
 */
import { probit } from 'simple-statistics';
import { erfc, lnGamma, regularizedBeta } from './special.js';

const SQRT2 = Math.SQRT2;
const LN_SQRT_2PI = 0.5 * Math.log(2 * Math.PI);

export function normalPdf(z: number): number {
  return Math.exp(-0.5 * z * z - LN_SQRT_2PI);
}

/** Φ(z) */
export function normalCdf(z: number): number {
  return 0.5 * erfc(-z / SQRT2);
}

/** 1 − Φ(z), precise in the upper tail */
export function normalSf(z: number): number {
  return 0.5 * erfc(z / SQRT2);
}

/** Φ⁻¹(p): simple-statistics' probit as a start, then Newton steps on the exact CDF. */
export function normalQuantile(p: number): number {
  checkProbability(p);
  if (p === 0) return -Infinity;
  if (p === 1) return Infinity;
  if (p > 0.5) return -normalQuantile(1 - p);
  let z = probit(p);
  if (!Number.isFinite(z)) z = -Math.sqrt(-2 * Math.log(p));
  // Newton on ln Φ, so the step stays well-scaled deep in the tail (p down to 1e-300)
  const logP = Math.log(p);
  for (let i = 0; i < 100; i++) {
    const cdf = normalCdf(z);
    const step = ((Math.log(cdf) - logP) * cdf) / normalPdf(z);
    z -= step;
    if (Math.abs(step) <= 1e-15 * Math.max(1, Math.abs(z))) break;
  }
  return z;
}

function checkDf(df: number): void {
  if (!(df > 0)) throw new RangeError(`degrees of freedom must be positive, got ${df}`);
}

function checkProbability(p: number): void {
  if (!(p >= 0 && p <= 1)) throw new RangeError(`probability must be in [0, 1], got ${p}`);
}

/** density of Student's t with `df` degrees of freedom */
export function studentTPdf(t: number, df: number): number {
  checkDf(df);
  if (df === Infinity) return normalPdf(t);
  const logC = lnGamma((df + 1) / 2) - lnGamma(df / 2) - 0.5 * Math.log(df * Math.PI);
  return Math.exp(logC - ((df + 1) / 2) * Math.log1p((t * t) / df));
}

/** P(T > t) for Student's t; the tails come straight from I_x(ν/2, 1/2), without cancellation. */
export function studentTSf(t: number, df: number): number {
  checkDf(df);
  if (Number.isNaN(t)) return Number.NaN;
  if (t === Infinity) return 0;
  if (t === -Infinity) return 1;
  if (df === Infinity || df > 1e7) return normalSf(t);
  const t2 = t * t;
  // two-sided tail P(|T| > |t|) = I_{ν/(ν+t²)}(ν/2, 1/2)
  const twoSided = regularizedBeta(df / (df + t2), df / 2, 0.5, t2 / (df + t2));
  return t >= 0 ? twoSided / 2 : 1 - twoSided / 2;
}

/** P(T ≤ t) for Student's t */
export function studentTCdf(t: number, df: number): number {
  return studentTSf(-t, df);
}

/** the t such that P(T ≤ t) = p */
export function studentTQuantile(p: number, df: number): number {
  checkDf(df);
  checkProbability(p);
  if (p === 0) return -Infinity;
  if (p === 1) return Infinity;
  if (p === 0.5) return 0;
  if (p < 0.5) return -studentTQuantile(1 - p, df);
  if (df === Infinity || df > 1e7) return normalQuantile(p);
  if (df === 1) return Math.tan(Math.PI * (p - 0.5));
  const tail = 1 - p;
  // bracket [lo, hi] with sf(lo) > tail ≥ sf(hi), then Newton steps that fall back to bisection
  let lo = 0;
  let hi = Math.max(1, normalQuantile(p));
  while (studentTSf(hi, df) > tail) {
    lo = hi;
    hi *= 2;
    if (hi > 1e300) return Infinity;
  }
  let x = (lo + hi) / 2;
  for (let i = 0; i < 200; i++) {
    const f = studentTSf(x, df) - tail;
    if (f > 0) lo = x;
    else hi = x;
    let next = x + f / studentTPdf(x, df);
    if (!(next > lo && next < hi)) next = (lo + hi) / 2;
    if (Math.abs(next - x) <= 1e-14 * Math.max(1, Math.abs(x))) return next;
    x = next;
  }
  return x;
}
