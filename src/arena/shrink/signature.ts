/**
 * The failure signature: which expectations, invariants or gate a run failed,
 * plus the fault families in play. A candidate counts as failing only when it
 * fails every one of the original's failures, so the search cannot slip to a
 * different bug.
 */
import type { ScenarioReport, ScoreReport, GateOutcome, ActionOutcome } from '../report.js';

export interface FailureSignature {
  /** `expectation:LABEL`, `invariant:NAME`, `gate:min_score`, sorted */
  failures: string[];
  /** the action types of the faults involved, sorted */
  families: string[];
}

export interface FailingRun {
  results?: ActionOutcome[];
  score?: ScoreReport;
  gate?: GateOutcome;
}

export function failuresOf(run: FailingRun): string[] {
  const out = new Set<string>();
  for (const r of run.results ?? []) if (r.met === false) out.add(`expectation:${r.label}`);
  for (const c of run.score?.measurements?.consistency?.failed_checks ?? []) out.add(`invariant:${c.name}`);
  if (run.gate && !run.gate.passed) out.add('gate:min_score');
  return [...out].sort();
}

export function matchesSignature(report: ScenarioReport, signature: FailureSignature): boolean {
  const got = new Set(failuresOf(report));
  return signature.failures.length > 0 && signature.failures.every((f) => got.has(f));
}

export function familiesOf(types: Iterable<string>): string[] {
  return [...new Set(types)].sort();
}

export function formatSignature(s: FailureSignature): string {
  return `${s.failures.join(', ')} [${s.families.join(', ')}]`;
}
