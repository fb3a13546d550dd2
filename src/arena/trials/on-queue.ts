/**
 * `arena trials --workers`: each round of the plan (./plan.ts: one block per arm, in its shuffled
 * order) is a run on the queue (../queue/queue.ts) that an `arena worker` executes on a fresh target
 * of its own (./block.ts, `runTrialRoundOnTarget`); the results come back here and the same report
 * is built as for a local run (./finish.ts).
 *
 * What stays as it is locally: the blocks, their order within each round, the tasks' order within
 * each block, the faults each faulted block applies (the fork named by its round and arm), the
 * target healthy again before the next block, and the trial ids and trace ids. The rounds are
 * enqueued in order and workers take the oldest first. What changes: up to one round per worker
 * slot runs at once, each on its own target, so a round never inherits what an earlier round left
 * behind. Calls are attributed on the worker (the trials' windows are its clock's).
 */
import type { CallRecord } from '../../protocol/calls.js';
import { systemClock } from '../../shared/clock.js';
import { CancelledError, UsageError, errorMessage, isArenaError } from '../../shared/errors.js';
import type { Target } from '../providers.js';
import type { QueueClient } from '../queue/queue.js';
import type { QueuedTrialRound, TargetRef } from '../queue/requests.js';
import type { Attribution } from './attribute.js';
import { addFaults, assertHasTasks, type FaultTally, type TrialRoundResult } from './block.js';
import { finishReport } from './finish.js';
import { addCounts, type MarkerCounts } from './markers.js';
import { describePlan, planTrials } from './plan.js';
import type { TrialsReport } from './report.js';
import { checkTrialsOptions, DEFAULT_RECOVERY_DEADLINE_MS, type RunTrialsOptions } from './run.js';
import type { TrialRecord } from './summary.js';

const NO_MARKERS: MarkerCounts = { entered_context: 0, drove_action: 0, reached_user: 0 };

export interface TrialsOnQueueOptions extends RunTrialsOptions {
  client: QueueClient;
  /** the target as the workers build it */
  ref: TargetRef;
}

/** `target` is the same target built here, never started: its tasks, side effects and prices name the report's */
export async function runTrialsOnQueue(target: Target, options: TrialsOnQueueOptions): Promise<TrialsReport> {
  checkTrialsOptions(options);
  assertHasTasks(target);
  if (options.stopWhen)
    throw new UsageError(
      '--stop-when watches the target this process started; with --workers each round runs on a worker’s own target: run without --workers to use it',
      { code: 'invalid_trials' },
    );
  if (options.gates?.maxCostRatio !== undefined && !target.calls)
    throw new UsageError(
      `--max-cost-ratio: target ${target.name} (${target.kind}) records no LLM calls, so cost is not measured`,
      { code: 'cost_not_measured' },
    );
  const clock = options.clock ?? systemClock;
  const startedAt = clock.now();
  const { scenario, n, seed } = options;
  const tasks = target.trials!;
  const taskIds = tasks.tasks.map((t) => t.id);
  const { arms, blocks, total } = planTrials(options, taskIds);
  options.onStart?.(describePlan(options, taskIds, arms, blocks));
  const deadline = options.recoveryDeadlineMs ?? DEFAULT_RECOVERY_DEADLINE_MS;
  const rounds = Array.from({ length: n }, (_, round) => blocks.filter((b) => b.round === round));
  const results: Array<TrialRoundResult | undefined> = rounds.map(() => undefined);
  let done = 0;
  let interrupted = false;
  // a round that did not complete on its worker (its target did not start there): the report says so,
  // with the trials of the rounds that did, rather than losing them with a throw
  let firstFailure: string | undefined;
  // enqueued one after another, in plan order (the workers take the oldest first), then waited for together
  const waits: Array<Promise<void>> = [];
  for (const [round, roundBlocks] of rounds.entries()) {
    const request: QueuedTrialRound = {
      kind: 'trial',
      target: options.ref,
      seed,
      ...(scenario ? { scenario } : {}),
      round,
      blocks: roundBlocks,
      recovery_deadline_ms: deadline,
    };
    const failed = (err: unknown) => {
      if (err instanceof CancelledError || options.signal?.aborted) interrupted = true;
      else firstFailure ??= `round ${round + 1}: ${errorMessage(err)}`;
    };
    try {
      const { result } = await options.client.submit(`r${round}`, request, options.signal);
      waits.push(
        result.then((value) => {
          const r = value as TrialRoundResult;
          results[round] = r;
          for (const trial of r.trials) options.onTrial?.(trial, ++done, total);
        }, failed),
      );
    } catch (err) {
      failed(err);
      break;
    }
  }
  await Promise.all(waits);
  const trials: TrialRecord[] = [];
  const faults: FaultTally = { applied: 0, failed: 0 };
  const byTrial = new Map<string, CallRecord[]>();
  const unattributed: CallRecord[] = [];
  let dropped = 0;
  // null unless some round's target kept a marker book (the same target file on every worker)
  let unattributedMarkers: MarkerCounts | null = null;
  let error: string | undefined = firstFailure;
  for (const r of results) {
    if (!r) continue;
    trials.push(...r.trials);
    addFaults(faults, r.faults);
    if (r.status === 'error') error ??= r.error ?? 'a round ended in an error on its worker';
    if (r.calls) {
      for (const [id, calls] of Object.entries(r.calls.byTrial)) byTrial.set(id, calls);
      unattributed.push(...r.calls.unattributed);
    }
    dropped += r.dropped ?? 0;
    if (r.unattributed_markers)
      unattributedMarkers = addCounts(unattributedMarkers ?? NO_MARKERS, r.unattributed_markers);
  }
  const attribution: Attribution | undefined = target.calls ? { byTrial, unattributed } : undefined;
  return finishReport({
    options,
    tasks,
    arms,
    trials,
    attribution,
    dropped: target.calls ? dropped : null,
    unattributedMarkers,
    faults,
    duration_ms: Math.round(clock.now() - startedAt),
    interrupted: interrupted || (options.signal?.aborted ?? false) || isArenaError(options.signal?.reason, 'stopped'),
    error,
  });
}
