/**
 * One candidate as a real scenario run on a fresh target (the public
 * runScenarioOnTarget), turned into a verdict: failed with the signature,
 * passed, or unjudged (the target did not start, the run errored or measured
 * nothing). Knows no concrete target: the caller passes a factory.
 */
import { errorMessage, isArenaError } from '../../shared/errors.js';
import type { Target } from '../providers.js';
import type { ScenarioReport } from '../report.js';
import { runScenarioOnTarget } from '../scenario/target.js';
import { matchesSignature } from './signature.js';
import { scheduleToScenario, type DraftContext } from './to-scenario.js';
import type { RunOnce, RunVerdict } from './types.js';

export interface TargetRunnerOptions extends DraftContext {
  createTarget: (seed: number) => Promise<Target>;
  timeScale?: number;
  signal?: AbortSignal;
  /** each run's report and verdict, for progress and logs */
  onRun?: (report: ScenarioReport | undefined, verdict: RunVerdict, why?: string) => void;
}

export function targetRunner(options: TargetRunnerOptions): RunOnce {
  return async (schedule) => {
    const scenario = scheduleToScenario(schedule, options);
    let report: ScenarioReport;
    try {
      const target = await options.createTarget(options.seed);
      report = await runScenarioOnTarget(target, scenario, {
        seed: options.seed,
        ...(options.signal ? { signal: options.signal } : {}),
        ...(options.timeScale !== undefined ? { timeScale: options.timeScale } : {}),
      });
    } catch (err) {
      options.signal?.throwIfAborted();
      // a candidate the target refuses (exit 2: a fault it cannot apply, an agent it does not have) is bad
      // input, not bad luck: retrying cannot help
      if (isArenaError(err) && err.exitCode === 2) throw err;
      options.onRun?.(undefined, 'unjudged', errorMessage(err));
      return 'unjudged';
    }
    options.signal?.throwIfAborted();
    const verdict = verdictOf(report, options);
    options.onRun?.(report, verdict, report.error);
    return verdict;
  };
}

/** a finished run's verdict: failed with the signature, passed, or said nothing (errored, measured nothing) */
export function verdictOf(report: ScenarioReport, options: DraftContext): RunVerdict {
  if (matchesSignature(report, options.signature)) return 'fail';
  // a run that errored or measured nothing says nothing about the failure (status names may grow: compare loosely)
  const status: string = report.status;
  if (status === 'error' || status === 'inconclusive' || status === 'interrupted' || status === 'stopped')
    return 'unjudged';
  return 'pass';
}
