/**
 * 95% intervals for the measured score (DESIGN §5), so a CI gate a point from
 * the score does not pass or fail by chance (`--gate lower`).
 *
 * - availability: Wilson score interval from the request counts;
 * - recovery: a Student-t interval on the mean recovery time (speed is
 *   monotone in it) from the per-fault recovery times, through the recovery
 *   formula; the share of faults that recovered is a count of the scenario's
 *   own faults, taken as measured (a binomial interval on two or three faults
 *   would say nothing but "few faults");
 * - consistency: the invariant checks are not a sample, so it is exact;
 * - score: the weighted bounds combined. Taking every dimension at its own
 *   bound at once makes the score interval conservative (at least 95%).
 */
import type { ScoreMeasurements } from './report.js';
import { studentTQuantile } from './regression/stats/distributions.js';
import { recoverySpeed } from './recovery-speed.js';

export const CONFIDENCE = 0.95;
const Z = 1.959963984540054;

export interface Bounds {
  low: number;
  high: number;
}

export interface ScoreInterval {
  confidence: number;
  availability: Bounds;
  recovery: Bounds;
  score: Bounds;
  /** recovery times the speed bound was estimated from; with fewer than 2 the speed is taken as measured */
  recovery_times: number;
}

/** Wilson score interval for a binomial proportion, as fractions 0–1; n = 0 knows nothing: [0, 1] */
export function wilsonInterval(successes: number, n: number, z = Z): Bounds {
  if (!(n > 0)) return { low: 0, high: 1 };
  const p = successes / n;
  const z2 = z * z;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (z / (1 + z2 / n)) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

/** unrounded bounds of each dimension and of the score; `consistency` is the (exact) consistency dimension */
export function scoreInterval(
  m: ScoreMeasurements,
  consistency: number,
  weights: { availability: number; recovery: number; consistency: number },
): ScoreInterval {
  const a = wilsonInterval(m.requests.succeeded, m.requests.total);
  const availability = { low: a.low * 100, high: a.high * 100 };
  const { recovery, times } = recoveryBounds(m);
  const combine = (av: number, rec: number) =>
    weights.availability * av + weights.recovery * rec + weights.consistency * consistency;
  return {
    confidence: CONFIDENCE,
    availability,
    recovery,
    score: { low: combine(availability.low, recovery.low), high: combine(availability.high, recovery.high) },
    recovery_times: times,
  };
}

function recoveryBounds(m: ScoreMeasurements): { recovery: Bounds; times: number } {
  const r = m.recovery;
  const times = r.faults.filter((f) => f.recovered && typeof f.recovery_ms === 'number').map((f) => f.recovery_ms!);
  if (r.disruptive_faults === 0) return { recovery: { low: 100, high: 100 }, times: 0 };
  const share = r.recovered / r.disruptive_faults;
  let speed: Bounds;
  if (times.length >= 2) {
    const n = times.length;
    const mean = times.reduce((s, x) => s + x, 0) / n;
    const sd = Math.sqrt(times.reduce((s, x) => s + (x - mean) ** 2, 0) / (n - 1));
    const half = studentTQuantile(1 - (1 - CONFIDENCE) / 2, n - 1) * (sd / Math.sqrt(n));
    // slower recovery, lower speed: the bounds swap
    speed = { low: recoverySpeed(mean + half), high: recoverySpeed(Math.max(0, mean - half)) };
  } else {
    const point = recoverySpeed(r.mttr_mean_ms);
    speed = { low: point, high: point };
  }
  const combine = (s: number, v: number) => Math.min(100, Math.max(0, 0.7 * s * 100 + 0.3 * v));
  return { recovery: { low: combine(share, speed.low), high: combine(share, speed.high) }, times: times.length };
}
