/**
 * The resilience score (DESIGN §5): 0.40 × availability + 0.30 × recovery +
 * 0.30 × consistency, each dimension 0–100, all from measurements.
 *
 * The score is rounded once, at the end, from the unrounded dimensions, and
 * down to 0.1: grade boundaries are whole numbers, so a score shown as 90.0
 * really is at least 90 and no rounding ever lifts a grade. (Rounding each
 * dimension to 0.1 before combining lifted it in 1,372 of 322,400 cases.)
 */
import type { Grade, GateOutcome, ScoreMeasurements, ScoreReport } from './report.js';
import { recoverySpeed } from './recovery-speed.js';
import { scoreInterval } from './score-interval.js';
import { GateFailedError } from '../shared/errors.js';

export const SCORE_WEIGHTS = { availability: 0.4, recovery: 0.3, consistency: 0.3 } as const;

export function gradeFor(score: number): Grade {
  if (score >= 95) return 'A+';
  if (score >= 90) return 'A';
  if (score >= 80) return 'B';
  if (score >= 70) return 'C';
  if (score >= 60) return 'D';
  return 'F';
}

export function availabilityOf(m: ScoreMeasurements): number {
  const { total, succeeded } = m.requests;
  // no request served in the window cannot be called available
  return total > 0 ? clamp((succeeded / total) * 100) : 0;
}

export function recoveryOf(m: ScoreMeasurements): number {
  const r = m.recovery;
  if (r.disruptive_faults === 0) return 100;
  return clamp(0.7 * ((r.recovered / r.disruptive_faults) * 100) + 0.3 * recoverySpeed(r.mttr_mean_ms));
}

export function consistencyOf(m: ScoreMeasurements): number {
  const c = m.consistency;
  return c.total > 0 ? clamp((c.passed / c.total) * 100) : 100;
}

/** The measured score. `speed` in the measurements is recomputed from the MTTR so the two never disagree. */
export function calculateScore(
  measurements: ScoreMeasurements,
  injections: ScoreReport['injections'] = { total: 0, succeeded: 0, failed: 0 },
): ScoreReport {
  const m: ScoreMeasurements = {
    ...measurements,
    recovery: { ...measurements.recovery, speed: round1(recoverySpeed(measurements.recovery.mttr_mean_ms)) },
  };
  const exact = { availability: availabilityOf(m), recovery: recoveryOf(m), consistency: consistencyOf(m) };
  if (m.requests.total === 0) {
    // nothing measured is not 0 %: no availability, so no score and no grade (DESIGN §5)
    return {
      score: null,
      grade: null,
      availability: null,
      availability_why: NO_REQUESTS_WHY,
      recovery: round1(exact.recovery),
      consistency: round1(exact.consistency),
      measurements: m,
      injections: { ...injections },
    };
  }
  const score = roundScore(combineDimensions(exact));
  const interval = scoreInterval(m, exact.consistency, SCORE_WEIGHTS);
  return {
    score,
    grade: gradeFor(score),
    // the dimensions are shown to 0.1; the score above was combined from them unrounded
    availability: round1(exact.availability),
    recovery: round1(exact.recovery),
    consistency: round1(exact.consistency),
    interval: {
      confidence: interval.confidence,
      availability: { low: roundDown(interval.availability.low), high: roundUp(interval.availability.high) },
      score: { low: roundDown(interval.score.low), high: roundUp(interval.score.high) },
      recovery_times: interval.recovery_times,
    },
    measurements: m,
    injections: { ...injections },
  };
}

/** 0.40 × availability + 0.30 × recovery + 0.30 × consistency, unrounded */
export function combineDimensions(d: { availability: number; recovery: number; consistency: number }): number {
  return (
    SCORE_WEIGHTS.availability * d.availability +
    SCORE_WEIGHTS.recovery * d.recovery +
    SCORE_WEIGHTS.consistency * d.consistency
  );
}

/**
 * The one rounding of a score: down to 0.1, so the shown score never crosses
 * a grade boundary the exact one did not. The tolerance keeps binary noise
 * (0.4 × 90 + 0.3 × 90 + 0.3 × 90 = 89.99999999999999) from costing 0.1.
 */
export function roundScore(x: number): number {
  return roundDown(x);
}

/** what a `--min-score` gate compares: the score, or the lower bound of its 95% interval (`--gate lower`) */
export type GateOn = 'score' | 'lower';

/** why a run without a workload request has no availability */
export const NO_REQUESTS_WHY =
  'no workload request ended in the measured window: the target made none (check its workload or probes)';

/** the score of a run that measured one; a run that measured nothing cannot be compared (exit 1, `inconclusive`) */
export function measuredScore(report: ScoreReport, what = 'the run'): number {
  if (report.score === null)
    throw new GateFailedError(`${what} is inconclusive: ${report.availability_why ?? NO_REQUESTS_WHY}`, {
      code: 'inconclusive',
    });
  return report.score;
}

/** undefined when there is no score to compare (nothing measured): the run is inconclusive, not judged */
export function gateOutcome(report: ScoreReport, minScore: number, on: GateOn = 'score'): GateOutcome | undefined {
  if (report.score === null) return undefined;
  const value = on === 'lower' ? (report.interval?.score.low ?? report.score) : report.score;
  return {
    min_score: minScore,
    score: report.score,
    passed: value >= minScore,
    ...(on === 'lower' ? { on, value } : {}),
  };
}

export interface InjectionStats {
  total: number;
  succeeded: number;
}

/**
 * The older formula, computed from injection statistics alone (kept for
 * comparison, never used as the resilience score): 0.7 × injection success
 * rate + 0.3 × recovery speed from the average recovery time.
 */
export function calculateScoreV1(stats: InjectionStats, avgRecoveryMs: number): { score: number; grade: Grade } {
  const successRate = stats.total > 0 ? (stats.succeeded / stats.total) * 100 : 0;
  const score = roundScore(0.7 * successRate + 0.3 * recoverySpeed(avgRecoveryMs));
  return { score, grade: gradeFor(score) };
}

function clamp(x: number): number {
  return Math.min(100, Math.max(0, x));
}

export function round1(x: number): number {
  return Math.round(x * 10) / 10;
}

function roundDown(x: number): number {
  return Math.floor(x * 10 + 1e-9) / 10;
}

function roundUp(x: number): number {
  return Math.ceil(x * 10 - 1e-9) / 10;
}
