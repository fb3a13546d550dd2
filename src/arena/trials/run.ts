/**
 * `arena trials` (DESIGN §14): every task of the target N times with the scenario's faults acting and N
 * times clean (and N times per `--intensity`), interleaved as ./plan.ts says, on one started target;
 * then pass^k, behaviour and cost per task from the answers and the calls the target's proxies saw.
 */
import type { CallRecord } from '../../protocol/calls.js';
import { systemClock, type Clock } from '../../shared/clock.js';
import { UsageError } from '../../shared/errors.js';
import type { Target } from '../providers.js';
import { runOnTarget } from '../run/on-target.js';
import type { StopSources } from '../safety/checks.js';
import { usableStopSources } from '../safety/sources.js';
import type { StopWhen } from '../safety/types.js';
import { startStopWatch, type StopWatch } from '../safety/watch.js';
import type { Scenario } from '../scenario/types.js';
import type { ArenaService } from '../service.js';
import { attributeCalls } from './attribute.js';
import {
  addFaults,
  assertHasTasks,
  checkScenarioSupported,
  checkScenarioTargets,
  runBlock,
  type FaultTally,
} from './block.js';
import { assertIntensityApplies, waitHealthy } from './faults.js';
import { finishReport } from './finish.js';
import type { TrialGates } from './gates.js';
import { describePlan, planTrials } from './plan.js';
import type { TrialsPlan, TrialsReport } from './report.js';
import { watchMarkers } from './markers.js';
import type { TrialRecord } from './summary.js';

export interface RunTrialsOptions {
  /** trials per task per arm */
  n: number;
  ks: readonly number[];
  seed: number;
  scenario?: Scenario | undefined;
  intensities?: readonly number[] | undefined;
  gates?: TrialGates | undefined;
  clock?: Clock | undefined;
  /** abort → the block's faults reverted, report with status `interrupted` (`stopped` for a StoppedError) */
  signal?: AbortSignal | undefined;
  /**
   * `--stop-when`: checked from the start (a window needs its past), able to trip from the first fault
   * that lands; a trip ends the trials, reverts the block's faults and fails the run with `stopped_by`
   */
  stopWhen?: StopWhen | undefined;
  /** where a prometheus condition's `token_env` is read */
  env?: Record<string, string | undefined> | undefined;
  /** replaces the stop conditions' sources (tests) */
  stopSources?: StopSources | undefined;
  /** how long the target may take to be healthy again after a faulted block (default 10 s) */
  recoveryDeadlineMs?: number | undefined;
  /** told once the blocks are planned, before the first trial (a live view sizes itself from it) */
  onStart?: ((plan: TrialsPlan) => void) | undefined;
  onTrial?: ((trial: TrialRecord, done: number, total: number) => void) | undefined;
}

export const DEFAULT_RECOVERY_DEADLINE_MS = 10_000;
export const MAX_TRIALS = 10_000;

export function checkTrialsOptions(options: RunTrialsOptions): void {
  const { n, ks } = options;
  if (!Number.isInteger(n) || n < 1 || n > MAX_TRIALS)
    throw new UsageError(`--trials must be an integer from 1 to ${MAX_TRIALS} (got ${n})`, { code: 'invalid_trials' });
  if (ks.length === 0 || ks.some((k) => !Number.isInteger(k) || k < 1 || k > n))
    throw new UsageError(`--k takes integers from 1 to --trials (${n}); got ${ks.join(',')}`, {
      code: 'invalid_trials',
    });
  for (const i of options.intensities ?? [])
    if (!(Number.isFinite(i) && i >= 0 && i <= 1))
      throw new UsageError(`--intensity takes probabilities from 0 to 1 (got ${i})`, { code: 'invalid_trials' });
  for (const gate of options.gates?.minPassK ?? [])
    if (gate.k > n)
      throw new UsageError(`--min-pass-k ${gate.k}:${gate.value}: k is over --trials (${n})`, {
        code: 'invalid_trials',
      });
  if (options.gates?.maxCostRatio !== undefined && !options.scenario)
    throw new UsageError('--max-cost-ratio compares faulted and clean trials: give --scenario', {
      code: 'invalid_trials',
    });
  assertIntensityApplies(options.scenario, options.intensities ?? []);
}

export async function runTrialsOnTarget(target: Target, options: RunTrialsOptions): Promise<TrialsReport> {
  checkTrialsOptions(options);
  // known before the target starts: a fleet is not brought up to learn it has nothing to try
  assertHasTasks(target);
  const clock = options.clock ?? systemClock;
  const { scenario, seed } = options;
  const intensities = options.intensities ?? [];
  const startedAt = clock.now();
  return runOnTarget<TrialsReport>(
    target,
    { clock },
    {
      check() {
        if (options.gates?.maxCostRatio !== undefined && !target.calls)
          throw new UsageError(
            `--max-cost-ratio: target ${target.name} (${target.kind}) records no LLM calls, so cost is not measured`,
            { code: 'cost_not_measured' },
          );
        checkScenarioSupported(target, scenario, intensities);
      },
      async run(service) {
        await checkScenarioTargets(service, target, scenario);
        const stopSources = options.stopWhen
          ? await usableStopSources(options.stopWhen, {
              runName: 'trials',
              observer: target.observer,
              calls: target.calls,
              env: options.env,
              sources: options.stopSources,
              agents: () => service.injector.agents(),
            })
          : undefined;
        // one signal for the loop: the caller's abort or a tripped stop condition
        const ac = new AbortController();
        const onAbort = () => ac.abort(options.signal?.reason);
        if (options.signal?.aborted) onAbort();
        else options.signal?.addEventListener('abort', onAbort, { once: true });
        const signal = ac.signal;
        const watch: StopWatch | undefined =
          options.stopWhen && stopSources
            ? startStopWatch({
                stopWhen: options.stopWhen,
                sources: stopSources,
                clock,
                rel: () => Math.max(0, Math.round(clock.now() - startedAt)),
                onTrip: (stoppedBy) => ac.abort(new Error(`stopped by ${stoppedBy.condition}`)),
              })
            : undefined;
        try {
          return await runBlocks(service, signal, watch);
        } finally {
          watch?.stop();
          options.signal?.removeEventListener('abort', onAbort);
        }
      },
    },
  );

  /** the blocks in order until done, interrupted or stopped (`signal`), then the summary */
  async function runBlocks(
    service: ArenaService,
    signal: AbortSignal,
    watch: StopWatch | undefined,
  ): Promise<TrialsReport> {
    const tasks = target.trials!;
    const deadline = options.recoveryDeadlineMs ?? DEFAULT_RECOVERY_DEADLINE_MS;
    const taskIds = tasks.tasks.map((t) => t.id);
    const { arms, blocks, total } = planTrials(options, taskIds);
    options.onStart?.(describePlan(options, taskIds, arms, blocks));
    const records: CallRecord[] = [];
    let since = target.calls?.calls().next ?? 0;
    let dropped = 0;
    const readCalls = () => {
      if (!target.calls) return;
      const read = target.calls.calls(since);
      records.push(...read.records);
      dropped += read.dropped;
      since = read.next;
    };
    const trials: TrialRecord[] = [];
    const faults: FaultTally = { applied: 0, failed: 0 };
    let interrupted = false;
    // undefined when the target keeps no marker book: markers are then null, never 0
    const markers = target.markers ? watchMarkers(() => target.markers!()) : undefined;
    await waitHealthy(target.observer, clock, deadline, signal);
    for (const block of blocks) {
      if (signal.aborted) {
        interrupted = true;
        break;
      }
      try {
        const done = await runBlock(block, {
          service,
          target,
          scenario,
          seed,
          clock,
          deadlineMs: deadline,
          signal,
          markers,
          onFaultApplied: () => watch?.arm(),
          onTrial: (trial) => {
            trials.push(trial);
            options.onTrial?.(trial, trials.length, total);
          },
        });
        addFaults(faults, done.faults);
      } finally {
        readCalls();
      }
    }
    readCalls();
    if (signal.aborted) interrupted = true;
    const attribution = target.calls ? attributeCalls(records, trials) : undefined;
    // the watch is stopped before the verdict: a trip after the last block ends nothing
    watch?.stop();
    return finishReport({
      options,
      tasks,
      arms,
      trials,
      attribution,
      dropped: target.calls ? dropped : null,
      unattributedMarkers: markers ? markers.unattributed() : null,
      faults,
      duration_ms: Math.round(clock.now() - startedAt),
      stoppedBy: watch?.stoppedBy(),
      interrupted,
    });
  }
}
