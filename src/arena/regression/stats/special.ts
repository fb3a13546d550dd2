/**
 * Special functions behind the exact distributions: the regularized incomplete
 * beta (Student t) and gamma (normal, through erfc) functions, each evaluated
 * by its series or continued fraction (modified Lentz) to double precision.
 * simple-statistics supplies lnΓ (Lanczos, ~1e-15) but neither of these.
 */
import { gammaln } from 'simple-statistics';

const EPS = 1e-16;
const TINY = 1e-300;
const MAX_ITERATIONS = 10_000;

export function lnGamma(x: number): number {
  return gammaln(x);
}

export function lnBeta(a: number, b: number): number {
  return lnGamma(a) + lnGamma(b) - lnGamma(a + b);
}

/**
 * I_x(a, b), the regularized incomplete beta function. `xc` is 1 − x, passed
 * separately when the caller can compute it without cancellation (t² / (ν + t²)).
 */
export function regularizedBeta(x: number, a: number, b: number, xc = 1 - x): number {
  if (!(a > 0) || !(b > 0)) throw new RangeError(`incomplete beta needs a > 0 and b > 0, got a=${a}, b=${b}`);
  if (Number.isNaN(x)) return Number.NaN;
  if (x <= 0) return 0;
  if (xc <= 0) return 1;
  const logFront = a * Math.log(x) + b * Math.log(xc) - lnBeta(a, b);
  // the continued fraction converges fast only below the mean (a+1)/(a+b+2); use the symmetry above it
  if (x < (a + 1) / (a + b + 2)) return (Math.exp(logFront) * betaContinuedFraction(x, a, b)) / a;
  return 1 - (Math.exp(logFront) * betaContinuedFraction(xc, b, a)) / b;
}

function betaContinuedFraction(x: number, a: number, b: number): number {
  const qab = a + b;
  const qap = a + 1;
  const qam = a - 1;
  let c = 1;
  let d = 1 - (qab * x) / qap;
  if (Math.abs(d) < TINY) d = TINY;
  d = 1 / d;
  let h = d;
  for (let m = 1; m <= MAX_ITERATIONS; m++) {
    const m2 = 2 * m;
    let aa = (m * (b - m) * x) / ((qam + m2) * (a + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < TINY) d = TINY;
    c = 1 + aa / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    h *= d * c;
    aa = (-(a + m) * (qab + m) * x) / ((a + m2) * (qap + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < TINY) d = TINY;
    c = 1 + aa / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < EPS) return h;
  }
  throw new RangeError(`incomplete beta did not converge for x=${x}, a=${a}, b=${b}`);
}

/** Q(a, x) = 1 − P(a, x), computed directly in the upper tail so small values keep their precision. */
export function regularizedGammaQ(a: number, x: number): number {
  if (!(a > 0)) throw new RangeError(`incomplete gamma needs a > 0, got ${a}`);
  if (x <= 0) return 1;
  return x < a + 1 ? 1 - gammaSeries(a, x) : gammaContinuedFraction(a, x);
}

function gammaSeries(a: number, x: number): number {
  let ap = a;
  let sum = 1 / a;
  let del = sum;
  for (let n = 0; n < MAX_ITERATIONS; n++) {
    ap += 1;
    del *= x / ap;
    sum += del;
    if (Math.abs(del) < Math.abs(sum) * EPS) return sum * Math.exp(-x + a * Math.log(x) - lnGamma(a));
  }
  throw new RangeError(`incomplete gamma series did not converge for a=${a}, x=${x}`);
}

function gammaContinuedFraction(a: number, x: number): number {
  let b = x + 1 - a;
  let c = 1 / TINY;
  let d = 1 / b;
  let h = d;
  for (let i = 1; i <= MAX_ITERATIONS; i++) {
    const an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < TINY) d = TINY;
    c = b + an / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < EPS) return Math.exp(-x + a * Math.log(x) - lnGamma(a)) * h;
  }
  throw new RangeError(`incomplete gamma fraction did not converge for a=${a}, x=${x}`);
}

/** erfc(x) = Q(1/2, x²) for x ≥ 0; accurate in the far tail where 1 − erf(x) would cancel. */
export function erfc(x: number): number {
  if (Number.isNaN(x)) return Number.NaN;
  if (x >= 0) return regularizedGammaQ(0.5, x * x);
  return 2 - regularizedGammaQ(0.5, x * x);
}
