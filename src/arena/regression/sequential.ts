/**
 * Group-sequential design for adaptive stopping. Looking at the data after
 * every batch and stopping at the first p < α inflates the false-positive rate
 * (about 2–3× at 5–10 looks). Instead, each look gets its own nominal level from
 * a Lan–DeMets alpha-spending function of O'Brien–Fleming type, spent on each
 * side separately (α/2 per side, as gsDesign's sfLDOF with a one-sided α/2):
 *   α(t) = 2 · [2 − 2Φ(z₁₋α/₄ / √t)],   t = runs so far / maxRuns,
 * so that the probability of ever rejecting under H0 is exactly α. The
 * boundaries come from the joint distribution of the sequential z statistics
 * (a Brownian motion observed at t₁ < … < t_K), integrated numerically on a
 * grid (Armitage–McPherson–Rowe recursion, as in Jennison & Turnbull ch. 19).
 *
 * Pocock-type spending, α·ln(1 + (e − 1)t), spends more alpha early: the
 * last boundary is higher, so reaching the same power needs a larger maxRuns,
 * but under a real effect the run stops much sooner on average (Jennison &
 * Turnbull table 2.4/2.6). test/bench/regress-adaptive.mjs measures both.
 *
 * Futility is non-binding and off unless asked for: it may stop a run that is
 * going nowhere, never declares an effect, so it can only lower the
 * false-positive rate — but it also stops some runs that would have found a
 * real effect, which costs power (the bench states how much).
 */
import { normalCdf, normalPdf, normalQuantile, normalSf } from './stats/distributions.js';

export interface SequentialOptions {
  /** two-sided significance level */
  alpha: number;
  /** runs per arm at the first look */
  minRuns: number;
  /** runs per arm added between looks */
  batchSize: number;
  /** runs per arm at the last look */
  maxRuns: number;
  /** stop for futility when the conditional power under the current trend falls below this (0, the default, disables) */
  futilityPower?: number;
  /** alpha-spending function (default O'Brien–Fleming type) */
  spending?: SpendingFunction;
}

export type SpendingFunction = 'obrien-fleming' | 'pocock';

export interface SequentialLookPlan {
  /** runs per arm at this look */
  n: number;
  /** information fraction n / maxRuns */
  information: number;
  /** alpha spent up to and including this look */
  alpha_spent: number;
  /** |z| boundary of this look */
  z: number;
  /** nominal two-sided p-value that stops at this look */
  nominal_p: number;
}

export interface SequentialDesign {
  alpha: number;
  futilityPower: number;
  spending: SpendingFunction;
  looks: SequentialLookPlan[];
}

export type LookDecision = 'reject' | 'futility' | 'continue' | 'accept';

export interface LookOutcome {
  decision: LookDecision;
  nominal_p: number;
  /** power to reject at the last look if the current trend continues; undefined at the last look */
  conditional_power?: number;
}

/**
 * O'Brien–Fleming-type alpha spent by information fraction t, both sides
 * together: each side spends the one-sided Lan–DeMets function for α/2,
 * 2 − 2Φ(z₁₋α/₄ / √t), so the total is 2 · (2 − 2Φ(z₁₋α/₄ / √t)) = 4 · Φ̄(z₁₋α/₄ / √t),
 * which reaches α at t = 1 and reproduces gsDesign's two-sided boundaries.
 */
export function obrienFlemingSpending(t: number, alpha: number): number {
  if (t <= 0) return 0;
  if (t >= 1) return alpha;
  const perSide = alpha / 2;
  return 2 * (2 * normalSf(normalQuantile(1 - perSide / 2) / Math.sqrt(t)));
}

/** Lan–DeMets Pocock-type alpha spent by information fraction t, both sides together */
export function pocockSpending(t: number, alpha: number): number {
  if (t <= 0) return 0;
  if (t >= 1) return alpha;
  return alpha * Math.log(1 + (Math.E - 1) * t);
}

/** the runs-per-arm counts at which the data are examined */
export function lookSchedule(minRuns: number, batchSize: number, maxRuns: number): number[] {
  const looks: number[] = [];
  for (let n = minRuns; n < maxRuns; n += batchSize) looks.push(n);
  looks.push(maxRuns);
  return looks;
}

const GRID_POINTS = 401; // odd, for Simpson's rule

// A design depends only on its options and costs O(looks × grid²) to compute;
// a regression test (and the 4,000-trial bench) asks for the same one again and again.
const designCache = new Map<string, SequentialDesign>();

export function groupSequentialDesign(options: SequentialOptions): SequentialDesign {
  const key = JSON.stringify([
    options.alpha,
    options.minRuns,
    options.batchSize,
    options.maxRuns,
    options.futilityPower ?? 0,
    options.spending ?? 'obrien-fleming',
  ]);
  const cached = designCache.get(key);
  if (cached) return { ...cached, looks: cached.looks.map((look) => ({ ...look })) };
  const design = computeDesign(options);
  if (designCache.size > 64) designCache.clear();
  designCache.set(key, design);
  return { ...design, looks: design.looks.map((look) => ({ ...look })) };
}

function computeDesign(options: SequentialOptions): SequentialDesign {
  const { alpha, minRuns, batchSize, maxRuns } = options;
  if (!(alpha > 0 && alpha < 1)) throw new RangeError(`alpha must be in (0, 1), got ${alpha}`);
  if (!Number.isInteger(minRuns) || minRuns < 2) throw new RangeError(`minRuns must be an integer ≥ 2, got ${minRuns}`);
  if (!Number.isInteger(batchSize) || batchSize < 1)
    throw new RangeError(`batchSize must be an integer ≥ 1, got ${batchSize}`);
  if (!Number.isInteger(maxRuns) || maxRuns < minRuns)
    throw new RangeError(`maxRuns must be an integer ≥ minRuns (${minRuns}), got ${maxRuns}`);
  const futilityPower = options.futilityPower ?? 0;
  const spending = options.spending ?? 'obrien-fleming';
  if (spending !== 'obrien-fleming' && spending !== 'pocock')
    throw new RangeError(`spending must be obrien-fleming or pocock, got ${String(spending)}`);
  const spend = spending === 'pocock' ? pocockSpending : obrienFlemingSpending;
  const ns = lookSchedule(minRuns, batchSize, maxRuns);
  const looks: SequentialLookPlan[] = [];
  // sub-density of the score S_k = Z_k √t_k on the continuation region, as grid values
  let grid: Float64Array | undefined;
  let density: Float64Array | undefined;
  let prevT = 0;
  let prevSpent = 0;
  for (const n of ns) {
    const t = n / maxRuns;
    const spent = spend(t, alpha);
    const target = spent - prevSpent;
    const sdT = Math.sqrt(t);
    let z: number;
    if (!grid || !density) {
      z = target > 0 ? normalQuantile(1 - target / 2) : Infinity;
    } else {
      const g = grid;
      const f = density;
      const step = Math.sqrt(t - prevT);
      const crossing = (b: number) =>
        simpson(g, (u, i) => f[i]! * (normalCdf((-b - u) / step) + normalSf((b - u) / step)));
      z = solveBoundary(crossing, target, sdT);
    }
    looks.push({ n, information: t, alpha_spent: spent, z, nominal_p: Number.isFinite(z) ? 2 * normalSf(z) : 0 });
    // carry the sub-density forward to the next look
    const bound = Math.min(Number.isFinite(z) ? z : 12, 12) * sdT;
    const nextGrid = linspace(-bound, bound, GRID_POINTS);
    const nextDensity = new Float64Array(GRID_POINTS);
    if (!grid || !density) {
      for (let i = 0; i < GRID_POINTS; i++) nextDensity[i] = normalPdf(nextGrid[i]! / sdT) / sdT;
    } else {
      const g = grid;
      const f = density;
      const step = Math.sqrt(t - prevT);
      for (let j = 0; j < GRID_POINTS; j++) {
        const s = nextGrid[j]!;
        nextDensity[j] = simpson(g, (u, i) => (f[i]! * normalPdf((s - u) / step)) / step);
      }
    }
    grid = nextGrid;
    density = nextDensity;
    prevT = t;
    prevSpent = spent;
  }
  return { alpha, futilityPower, spending, looks };
}

/** the |z| boundary whose crossing probability (on the score scale b = z√t) equals the target */
function solveBoundary(crossing: (b: number) => number, target: number, sdT: number): number {
  if (!(target > 1e-15)) return Infinity;
  let lo = 0;
  let hi = 12 * sdT;
  if (crossing(hi) > target) return hi / sdT;
  for (let i = 0; i < 80; i++) {
    const mid = (lo + hi) / 2;
    if (crossing(mid) > target) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2 / sdT;
}

function linspace(from: number, to: number, count: number): Float64Array {
  const out = new Float64Array(count);
  for (let i = 0; i < count; i++) out[i] = from + ((to - from) * i) / (count - 1);
  return out;
}

function simpson(grid: Float64Array, f: (x: number, i: number) => number): number {
  const n = grid.length;
  const h = (grid[n - 1]! - grid[0]!) / (n - 1);
  let sum = f(grid[0]!, 0) + f(grid[n - 1]!, n - 1);
  for (let i = 1; i < n - 1; i++) sum += (i % 2 === 1 ? 4 : 2) * f(grid[i]!, i);
  return (sum * h) / 3;
}

/**
 * Decide at look `index` from the observed two-sided p-value and the sign of
 * the effect. The p-value (exact t) is mapped onto the z scale, where the
 * boundaries live.
 */
export function evaluateLook(design: SequentialDesign, index: number, p: number, sign: number): LookOutcome {
  const plan = design.looks[index];
  if (!plan) throw new RangeError(`look ${index} is not in the design (it has ${design.looks.length})`);
  const isLast = index === design.looks.length - 1;
  if (p <= plan.nominal_p) return { decision: 'reject', nominal_p: plan.nominal_p };
  if (isLast) return { decision: 'accept', nominal_p: plan.nominal_p };
  const z = (sign < 0 ? -1 : 1) * normalQuantile(1 - Math.min(1, p) / 2);
  const conditionalPower = conditionalPowerUnderTrend(z, plan.information, design.looks[design.looks.length - 1]!.z);
  const futile = design.futilityPower > 0 && conditionalPower < design.futilityPower;
  return { decision: futile ? 'futility' : 'continue', nominal_p: plan.nominal_p, conditional_power: conditionalPower };
}

/** Lan & Wittes: P(|Z_final| > c | B(t) = z√t, drift = the current estimate z/√t) */
export function conditionalPowerUnderTrend(z: number, t: number, finalZ: number): number {
  if (t >= 1) return Math.abs(z) > finalZ ? 1 : 0;
  const b = z * Math.sqrt(t);
  const mean = b + (z / Math.sqrt(t)) * (1 - t); // = z / √t
  const sd = Math.sqrt(1 - t);
  return normalSf((finalZ - mean) / sd) + normalCdf((-finalZ - mean) / sd);
}
