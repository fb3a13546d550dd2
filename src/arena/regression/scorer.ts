/**
 * Scorers turn one run's measured report into the number the regression test
 * compares. The default is the measured resilience score itself; an ensemble
 * weighs several scorers (say, availability twice as much as recovery).
 */
import type { ScoreReport } from '../report.js';
import { UsageError } from '../../shared/errors.js';
import { measuredScore } from '../score.js';

export interface Scorer<Input = ScoreReport> {
  readonly name: string;
  score(input: Input): number;
}

/** ScoreReport.score: 0.40 × availability + 0.30 × recovery + 0.30 × consistency, as measured */
export const resilienceScorer: Scorer = { name: 'resilience', score: (report) => measuredScore(report) };

export type ScoreDimension = 'availability' | 'recovery' | 'consistency';

export function dimensionScorer(dimension: ScoreDimension): Scorer {
  // a run without availability has no score to weigh either
  return { name: dimension, score: (report) => (measuredScore(report), report[dimension] ?? 0) };
}

export interface WeightedScorer<Input = ScoreReport> {
  scorer: Scorer<Input>;
  weight: number;
}

/** A weighted mean of scorers; weights are validated and normalised to sum to 1. */
export class EnsembleScorer<Input = ScoreReport> implements Scorer<Input> {
  readonly name: string;
  readonly members: ReadonlyArray<WeightedScorer<Input>>;

  constructor(members: ReadonlyArray<WeightedScorer<Input>>, name?: string) {
    if (!Array.isArray(members) || members.length === 0) {
      throw new UsageError('an ensemble scorer needs at least one member', { code: 'invalid_scorer' });
    }
    const problems: string[] = [];
    members.forEach((m, i) => {
      if (!m || typeof m.scorer?.score !== 'function') problems.push(`members[${i}].scorer has no score() function`);
      if (typeof m?.weight !== 'number' || !Number.isFinite(m.weight))
        problems.push(`members[${i}].weight must be a finite number, got ${String(m?.weight)}`);
      else if (m.weight < 0) problems.push(`members[${i}].weight must not be negative, got ${m.weight}`);
    });
    if (problems.length === 0 && members.every((m) => m.weight === 0)) problems.push('the weights are all zero');
    if (problems.length > 0)
      throw new UsageError(`invalid ensemble scorer: ${problems.join('; ')}`, { code: 'invalid_scorer' });
    const total = members.reduce((sum, m) => sum + m.weight, 0);
    this.members = Object.freeze(members.map((m) => Object.freeze({ scorer: m.scorer, weight: m.weight / total })));
    this.name = name ?? `ensemble(${this.members.map((m) => `${m.scorer.name}×${round(m.weight)}`).join(', ')})`;
  }

  score(input: Input): number {
    let sum = 0;
    for (const m of this.members) {
      if (m.weight === 0) continue;
      const value = m.scorer.score(input);
      if (!Number.isFinite(value)) throw new RangeError(`scorer ${m.scorer.name} returned ${value}`);
      sum += m.weight * value;
    }
    return sum;
  }
}

function round(n: number): number {
  return Math.round(n * 1000) / 1000;
}
