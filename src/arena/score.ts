/**
 * The resilience score (DESIGN §5): 0.40 × availability + 0.30 × recovery +
 * 0.30 × consistency, each dimension 0–100, all from measurements.
 */
import type { Grade, ScoreMeasurements, ScoreReport } from './report.js';

export const SCORE_WEIGHTS = { availability: 0.4, recovery: 0.3, consistency: 0.3 } as const;
/** MTTR at or under this scores full speed */
export const FAST_RECOVERY_MS = 1000;
/** MTTR at or over this scores zero speed */
export const SLOW_RECOVERY_MS = 10_000;

export function gradeFor(score: number): Grade {
  if (score >= 95) return 'A+';
  if (score >= 90) return 'A';
  if (score >= 80) return 'B';
  if (score >= 70) return 'C';
  if (score >= 60) return 'D';
  return 'F';
}

/** 100 at MTTR ≤ 1 s, 0 at ≥ 10 s, linear between; 0 when nothing recovered */
export function recoverySpeed(mttrMs: number | null): number {
  if (mttrMs === null || !Number.isFinite(mttrMs)) return 0;
  if (mttrMs <= FAST_RECOVERY_MS) return 100;
  if (mttrMs >= SLOW_RECOVERY_MS) return 0;
  return (100 * (SLOW_RECOVERY_MS - mttrMs)) / (SLOW_RECOVERY_MS - FAST_RECOVERY_MS);
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
  const availability = round1(availabilityOf(m));
  const recovery = round1(recoveryOf(m));
  const consistency = round1(consistencyOf(m));
  const score = round1(
    SCORE_WEIGHTS.availability * availability + SCORE_WEIGHTS.recovery * recovery + SCORE_WEIGHTS.consistency * consistency,
  );
  return { score, grade: gradeFor(score), availability, recovery, consistency, measurements: m, injections: { ...injections } };
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
  const score = round1(0.7 * successRate + 0.3 * recoverySpeed(avgRecoveryMs));
  return { score, grade: gradeFor(score) };
}

function clamp(x: number): number {
  return Math.min(100, Math.max(0, x));
}

export function round1(x: number): number {
  return Math.round(x * 10) / 10;
}
