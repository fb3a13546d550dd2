/**
 * Judges a candidate by Wald's sequential probability ratio test, not one run.
 * H0: the candidate fails at rate ≤ p0 (the failure is gone); H1: it fails at
 * rate ≥ p1 (it still fails). With the defaults (p0 0.05, p1 0.6, α 0.01,
 * β 0.05) a candidate that always fails is settled in 2 runs and one that never
 * fails in 4 (as with α 0.05: the smaller α costs runs only when a passing
 * candidate happens to fail, and a false "still fails" is the error the rest of
 * the shrink cannot undo: the cause is then not in the result); the chance of
 * calling a passing candidate failing is at most α,
 * of calling a failing one passing at most β (Wald's bounds, which the
 * truncation at maxRuns keeps within a small margin: at the cap the observed
 * rate is compared with the midpoint of p0 and p1).
 * Runs that cannot be judged (the target did not start) are retried, never
 * counted as passes; too many in a row is a runtime error.
 */
import { RuntimeError } from '../../shared/errors.js';
import type { Judge, Judgement, JudgeOptions, RunOnce, Schedule } from './types.js';

export interface SequentialOptions {
  p0?: number;
  p1?: number;
  alpha?: number;
  beta?: number;
  /** most judged runs per candidate */
  maxRuns?: number;
  /** most unjudged runs in a row before giving up */
  maxUnjudged?: number;
}

export const SEQUENTIAL_DEFAULTS = { p0: 0.05, p1: 0.6, alpha: 0.01, beta: 0.05, maxRuns: 12, maxUnjudged: 3 };

export interface SequentialJudge extends Judge {
  /** every run spent so far, unjudged ones included */
  runsSpent(): number;
}

export function sequentialJudge(runOnce: RunOnce, options: SequentialOptions = {}): SequentialJudge {
  const o = { ...SEQUENTIAL_DEFAULTS, ...options };
  if (!(o.p0 > 0 && o.p0 < o.p1 && o.p1 < 1)) throw new RangeError(`need 0 < p0 < p1 < 1 (got ${o.p0}, ${o.p1})`);
  const upper = Math.log((1 - o.beta) / o.alpha);
  const lower = Math.log(o.beta / (1 - o.alpha));
  const onFail = Math.log(o.p1 / o.p0);
  const onPass = Math.log((1 - o.p1) / (1 - o.p0));
  let spent = 0;
  const judge = async (schedule: Schedule, options: JudgeOptions = {}): Promise<Judgement> => {
    let llr = 0;
    let runs = 0;
    let failures = 0;
    let unjudged = 0;
    let unjudgedInAll = 0;
    const allOf = options.allOf;
    const judgement = (fails: boolean): Judgement => ({ fails, runs, failures, spent: runs + unjudgedInAll });
    while (runs < (allOf ?? o.maxRuns)) {
      const verdict = await runOnce(schedule);
      spent++;
      if (verdict === 'unjudged') {
        unjudgedInAll++;
        if (++unjudged >= o.maxUnjudged)
          throw new RuntimeError(
            `${unjudged} runs in a row could not be judged (the target did not start?); shrink stopped`,
            { code: 'shrink_unjudged' },
          );
        continue;
      }
      unjudged = 0;
      runs++;
      if (verdict === 'fail') failures++;
      if (allOf !== undefined) {
        // every run must fail: the first pass is the answer, no need to spend the rest
        if (verdict === 'pass') return judgement(false);
        continue;
      }
      llr += verdict === 'fail' ? onFail : onPass;
      if (llr >= upper) return judgement(true);
      if (llr <= lower) return judgement(false);
    }
    if (allOf !== undefined) return judgement(true);
    return judgement(failures / runs >= (o.p0 + o.p1) / 2);
  };
  return Object.assign(judge, { runsSpent: () => spent });
}
