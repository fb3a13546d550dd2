/**
 * `arena trials --workers`: each block of the plan (./plan.ts) is a run on the queue
 * (../queue/queue.ts) that an `arena worker` executes on a fresh target of its own
 * (./block.ts, `runTrialBlockOnTarget`); the results come back here and the same report is built as
 * for a local run (./finish.ts).
 *
 * What stays as it is locally: the blocks, their order, the tasks' order within each block, the
 * faults each faulted block applies (the fork named by its round and arm), and the trial ids and
 * trace ids. The blocks are enqueued in plan order and workers take the oldest first, so the plan's
 * interleaving of arms holds across workers too; what changes is that up to one block per worker
 * slot runs at once, each on its own target, so no clean block ever shares a target with a faulted
 * one. Calls are attributed on the worker (the trials' windows are its clock's).
 */
import type { CallRecord } from '../../protocol/calls.js';
import { systemClock } from '../../shared/clock.js';
import { CancelledError, UsageError, isArenaError } from '../../shared/errors.js';
import { createRandom } from '../../shared/random.js';
import type { Target } from '../providers.js';
import type { QueueClient, TargetRef } from '../queue/queue.js';
import type { Attribution } from './attribute.js';
import { addFaults, assertHasTasks, type FaultTally, type QueuedTrialBlock, type TrialBlockResult } from './block.js';
import { finishReport } from './finish.js';
import { armsFor, planBlocks } from './plan.js';
import type { TrialsReport } from './report.js';
import { checkTrialsOptions, DEFAULT_RECOVERY_DEADLINE_MS, type RunTrialsOptions } from './run.js';
import type { TrialRecord } from './summary.js';

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
      '--stop-when watches the target this process started; with --workers each block runs on a worker’s own target: run without --workers to use it',
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
  const arms = armsFor(scenario !== undefined, options.intensities ?? []);
  const tasks = target.trials!;
  const blocks = planBlocks(
    createRandom(seed).fork('trials.plan'),
    n,
    arms,
    tasks.tasks.map((t) => t.id),
  );
  const total = blocks.reduce((s, b) => s + b.tasks.length, 0);
  const deadline = options.recoveryDeadlineMs ?? DEFAULT_RECOVERY_DEADLINE_MS;
  const results: Array<TrialBlockResult | undefined> = blocks.map(() => undefined);
  let done = 0;
  let interrupted = false;
  let firstFailure: unknown;
  // all enqueued at once, in plan order: the workers take the oldest first
  await Promise.all(
    blocks.map(async (block, i) => {
      const request: QueuedTrialBlock = {
        kind: 'trial',
        target: options.ref,
        seed,
        ...(scenario ? { scenario } : {}),
        block,
        recovery_deadline_ms: deadline,
      };
      try {
        const result = (await options.client.run(
          `r${block.round}.${block.arm.name}`,
          request,
          options.signal,
        )) as TrialBlockResult;
        results[i] = result;
        for (const trial of result.trials) options.onTrial?.(trial, ++done, total);
      } catch (err) {
        if (err instanceof CancelledError || options.signal?.aborted) interrupted = true;
        else firstFailure ??= err;
      }
    }),
  );
  // a block that could not run (its target did not start on the worker) leaves the report without its trials
  if (firstFailure !== undefined && !interrupted) throw firstFailure;
  const trials: TrialRecord[] = [];
  const faults: FaultTally = { applied: 0, failed: 0 };
  const byTrial = new Map<string, CallRecord[]>();
  const unattributed: CallRecord[] = [];
  let dropped = 0;
  let error: string | undefined;
  for (const r of results) {
    if (!r) continue;
    trials.push(...r.trials);
    addFaults(faults, r.faults);
    if (r.status === 'error') error ??= r.error ?? 'a block ended in an error on its worker';
    if (r.calls) {
      for (const [id, calls] of Object.entries(r.calls.byTrial)) byTrial.set(id, calls);
      unattributed.push(...r.calls.unattributed);
    }
    dropped += r.dropped ?? 0;
  }
  const attribution: Attribution | undefined = target.calls ? { byTrial, unattributed } : undefined;
  return finishReport({
    options,
    tasks,
    arms,
    trials,
    attribution,
    dropped: target.calls ? dropped : null,
    faults,
    duration_ms: Math.round(clock.now() - startedAt),
    interrupted: interrupted || (options.signal?.aborted ?? false) || isArenaError(options.signal?.reason, 'stopped'),
    error,
  });
}
