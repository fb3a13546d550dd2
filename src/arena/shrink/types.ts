/** The shapes shrink works with: a fault at its time, a schedule of them, a judged verdict. */
import type { ActionType } from '../action.js';

export interface ShrinkFault {
  /** position in the original run: stable identity while the subset is searched */
  id: number;
  label: string;
  type: ActionType;
  target_id?: string;
  source_id?: string;
  metadata?: Record<string, unknown>;
  /** ms after the warmup, when the original run planned it */
  at_ms: number;
  expect_success?: boolean;
  expect_failure?: boolean;
}

/** what one candidate run executes: the faults (times included) and the cooldown after them */
export interface Schedule {
  faults: ShrinkFault[];
  cooldown_ms: number;
}

/** one run of a candidate: failed with the signature, passed (or failed some other way), or could not be judged */
export type RunVerdict = 'fail' | 'pass' | 'unjudged';
export type RunOnce = (schedule: Schedule) => Promise<RunVerdict>;

/** a candidate judged by the sequential test */
export interface Judgement {
  fails: boolean;
  /** judged runs */
  runs: number;
  failures: number;
  /** every run this judgement spent, unjudged ones included (runs, when the judge does not say) */
  spent?: number;
}
/**
 * `allOf: n` asks for a stricter verdict than the sequential test: fails only when n judged runs in a row
 * all fail, so the first pass settles it (compression keeps a step only then)
 */
export interface JudgeOptions {
  allOf?: number;
}
export type Judge = (schedule: Schedule, options?: JudgeOptions) => Promise<Judgement>;

/** what the search reports as it goes (stderr, events) */
export interface ShrinkProgress {
  phase: 'reproduce' | 'search' | 'verify' | 'compress' | 'certificate';
  /** candidates judged so far, this one included */
  candidates: number;
  /** faults in the smallest failing schedule confirmed so far */
  size: number;
  runs: number;
  /** the labels of the faults of the candidate being tried (absent on the closing report) */
  trying?: string[];
}
