/**
 * `arena shrink --workers`: each run of a candidate is a run on the queue
 * (../queue/queue.ts) that an `arena worker` executes as a scenario run on a
 * fresh target of its own (`runShrinkRunOnTarget`), instead of here.
 *
 * The sequential test asks for one run at a time; on workers the runs of a
 * candidate are started `width` at a time and handed to the test in the
 * order they were started, whatever order they finish in, so the test sees
 * the same sequence of verdicts a local shrink sees and decides the same. Runs
 * it did not need are not counted as spent (`runsStarted` tells how many ran):
 * a candidate asked for again (compression judges a step twice) uses them first.
 */
import { UsageError, errorMessage, isArenaError } from '../../shared/errors.js';
import type { Target } from '../providers.js';
import type { QueueClient } from '../queue/queue.js';
import type { QueuedShrinkRun, TargetRef } from '../queue/requests.js';
import type { ScenarioReport } from '../report.js';
import { runScenarioOnTarget } from '../scenario/target.js';
import type { Scenario } from '../scenario/types.js';
import { verdictOf, type TargetRunnerOptions } from './on-target.js';
import { scheduleToScenario } from './to-scenario.js';
import type { RunOnce, RunVerdict, Schedule } from './types.js';

/**
 * candidates of one round judged at once on workers (the certificate's removals, ddmin's chunks), each with
 * its own runs at once: a certificate round has one candidate per needed fault (2 for a pair), while ddmin's
 * rounds grow to a candidate per fault, and what runs beyond the first failing one is spent for nothing
 */
export const ROUND_WIDTH_ON_WORKERS = 4;

/** what the worker sends back: the run's report, or why the target refused the candidate (bad input, exit 2) */
export type ShrinkRunResult = { report: ScenarioReport } | { refused: { message: string; code: string } };

/** a worker's run of one candidate; a target that did not start fails the run (the candidate is then unjudged) */
export async function runShrinkRunOnTarget(
  target: Target,
  request: QueuedShrinkRun,
  signal: AbortSignal,
): Promise<ShrinkRunResult> {
  try {
    const report = await runScenarioOnTarget(target, request.scenario, {
      seed: request.seed,
      signal,
      ...(request.time_scale !== undefined ? { timeScale: request.time_scale } : {}),
    });
    return { report };
  } catch (err) {
    if (isArenaError(err) && err.exitCode === 2) return { refused: { message: err.message, code: err.code } };
    throw err;
  }
}

export interface QueueRunnerOptions extends Omit<TargetRunnerOptions, 'createTarget'> {
  client: QueueClient;
  target: TargetRef;
  /** runs of one candidate started at once (default 2: a candidate that always fails is settled by 2) */
  width?: number;
}

type Outcome = { result: ShrinkRunResult } | { error: string };

export function queueRunner(options: QueueRunnerOptions): RunOnce & { runsStarted(): number } {
  const width = Math.max(1, Math.floor(options.width ?? 2));
  const started = new Map<string, Array<Promise<Outcome>>>();
  let count = 0;
  const start = (scenario: Scenario): Promise<Outcome> => {
    const request: QueuedShrinkRun = {
      kind: 'shrink',
      target: options.target,
      seed: options.seed,
      scenario,
      ...(options.timeScale !== undefined ? { time_scale: options.timeScale } : {}),
    };
    // never rejects: a run nobody asks for again must not become an unhandled rejection
    return options.client.run(`run-${count++}`, request, options.signal).then(
      (result) => ({ result: result as ShrinkRunResult }),
      (err: unknown) => ({ error: errorMessage(err) }),
    );
  };
  const runOnce = async (schedule: Schedule): Promise<RunVerdict> => {
    const scenario = scheduleToScenario(schedule, options);
    const key = JSON.stringify(scenario);
    let queue = started.get(key);
    if (!queue || queue.length === 0) {
      queue = Array.from({ length: width }, () => start(scenario));
      started.set(key, queue);
    }
    const outcome = await queue.shift()!;
    options.signal?.throwIfAborted();
    if ('error' in outcome) {
      options.onRun?.(undefined, 'unjudged', outcome.error);
      return 'unjudged';
    }
    if ('refused' in outcome.result) {
      // a candidate the target refuses (a fault it cannot apply) is bad input: retrying cannot help
      const { message, code } = outcome.result.refused;
      throw new UsageError(message, { code });
    }
    const { report } = outcome.result;
    const verdict = verdictOf(report, options);
    options.onRun?.(report, verdict, report.error);
    return verdict;
  };
  return Object.assign(runOnce, { runsStarted: () => count });
}
