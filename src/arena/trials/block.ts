/**
 * One block of trials (./plan.ts) on a started target: the faulted arm's faults applied at its start,
 * each task of the block tried once in the planned order, every fault reverted and the target healthy
 * again at its end. A local `arena trials` runs its blocks one after another on one target
 * (./run.ts); with `--workers` each round (its blocks, one per arm, in the planned order) is a run on
 * the queue (./on-queue.ts) that an `arena worker` executes on a fresh target of its own
 * (`runTrialRoundOnTarget`). Both go through `runBlock`, and a block's fault choices come from the
 * fork named by its round and arm, so a block does the same wherever it runs.
 */
import type { CallRecord } from '../../protocol/calls.js';
import type { Clock } from '../../shared/clock.js';
import { systemClock } from '../../shared/clock.js';
import { UsageError, errorMessage } from '../../shared/errors.js';
import { createRandom, deriveSeed } from '../../shared/random.js';
import type { Target } from '../providers.js';
import type { QueuedTrialRound } from '../queue/requests.js';
import { runOnTarget } from '../run/on-target.js';
import type { Scenario } from '../scenario/types.js';
import type { ArenaService } from '../service.js';
import { assertSupported } from '../support.js';
import { assertScenarioTargets } from '../target-names.js';
import { attributeCalls } from './attribute.js';
import { applyBlockFaults, blockActions, endBlockFaults, waitHealthy } from './faults.js';
import { watchMarkers, type MarkerCounts, type MarkerWatch } from './markers.js';
import { armsFor } from './plan.js';
import type { Block } from './plan.js';
import type { TrialsReport } from './report.js';
import type { TrialRecord } from './summary.js';

export type FaultTally = TrialsReport['trials']['faults'];

export interface BlockContext {
  service: ArenaService;
  target: Target;
  scenario: Scenario | undefined;
  seed: number;
  clock: Clock;
  /** how long the target may take to be healthy again after the block's faults are reverted */
  deadlineMs: number;
  /** abort → the block stops before its next task; its faults are reverted */
  signal: AbortSignal;
  /** the target's marker book, watched trial by trial (absent: the target keeps none) */
  markers?: MarkerWatch | undefined;
  /** a fault of the block landed (the stop watch arms) */
  onFaultApplied?: () => void;
  onTrial?: (trial: TrialRecord) => void;
}

/** a W3C traceparent whose trace id belongs to this trial alone (from the seed: a replay sends the same) */
function traceFor(seed: number, trial: string): { trace_id: string; traceparent: string } {
  const word = (label: string) => deriveSeed(seed, `${trial}#${label}`).toString(16).padStart(8, '0');
  const trace_id = `${word('a')}${word('b')}${word('c')}${word('d')}`;
  return { trace_id, traceparent: `00-${trace_id}-${word('e')}${word('f')}-01` };
}

/** the block's trials (a try cut short by the signal is left out) and what its faults did */
export async function runBlock(
  block: Block,
  ctx: BlockContext,
): Promise<{ trials: TrialRecord[]; faults: FaultTally }> {
  const { service, target, scenario, seed, clock, signal } = ctx;
  const tasks = target.trials!;
  const trials: TrialRecord[] = [];
  const faults: FaultTally = { applied: 0, failed: 0 };
  try {
    if (block.arm.faulted) {
      const results = await applyBlockFaults(
        service,
        blockActions(scenario!, block.arm),
        createRandom(seed).fork(`trials.target.${block.round}.${block.arm.name}`),
        clock,
      );
      for (const r of results) {
        if (r.success) {
          faults.applied++;
          ctx.onFaultApplied?.();
        } else {
          faults.failed++;
          faults.first_error ??= `${r.action.type} ${r.action.target_id}: ${r.error ?? 'failed'}`;
        }
      }
    }
    for (const taskId of block.tasks) {
      if (signal.aborted) break;
      const id = `r${block.round}.${block.arm.name}.${taskId}`;
      const { trace_id, traceparent } = traceFor(seed, id);
      const started_ms = clock.wallNow().getTime();
      ctx.markers?.begin();
      const answer = await tasks
        .run(taskId, { trial: id, traceparent, signal })
        .catch((err: unknown) => ({ passed: false, detail: errorMessage(err) }));
      // a try cut short by Ctrl-C is no failure of the agent's: it is left out, not counted
      if (signal.aborted) break;
      const trial: TrialRecord = {
        id,
        trace_id,
        task: taskId,
        arm: block.arm.name,
        round: block.round,
        started_ms,
        ended_ms: clock.wallNow().getTime(),
        passed: answer.passed,
        ...(answer.detail !== undefined ? { detail: answer.detail } : {}),
        ...(ctx.markers ? { markers: ctx.markers.end() } : {}),
      };
      trials.push(trial);
      ctx.onTrial?.(trial);
    }
  } finally {
    if (block.arm.faulted) await endBlockFaults(service, target.observer, clock, ctx.deadlineMs, signal);
  }
  return { trials, faults };
}

/** known before the target starts: a fleet is not brought up to learn it has nothing to try */
export function assertHasTasks(target: Target): void {
  if (!target.trials || target.trials.tasks.length === 0)
    throw new UsageError(`target ${target.name} lists no tasks: add tasks: to its target file (DESIGN §14)`, {
      code: 'no_tasks',
    });
}

export function addFaults(into: FaultTally, more: FaultTally): void {
  into.applied += more.applied;
  into.failed += more.failed;
  if (more.first_error !== undefined) into.first_error ??= more.first_error;
}

/** once the target is up: it can apply every fault of the scenario, at every --intensity (exit 2 otherwise) */
export function checkScenarioSupported(
  target: Target,
  scenario: Scenario | undefined,
  intensities?: readonly number[] | undefined,
): void {
  if (!scenario) return;
  assertSupported(
    target,
    scenario.actions.map((a) => a.action.type),
    `scenario ${scenario.name}`,
    scenario.actions.map((a) => a.action),
  );
  // as each faulted block applies them (an --intensity sets a probability the target may not take):
  // refused now, not block by block while the arm runs as if faulted
  for (const arm of armsFor(true, intensities ?? []).filter((a) => a.intensity !== undefined)) {
    const actions = blockActions(scenario, arm);
    assertSupported(
      target,
      actions.map((a) => a.type),
      `scenario ${scenario.name} at --intensity ${arm.intensity}`,
      actions,
    );
  }
}

/** the agents the scenario names exist on the started target (exit 2 otherwise) */
export async function checkScenarioTargets(
  service: ArenaService,
  target: Target,
  scenario: Scenario | undefined,
): Promise<void> {
  if (!scenario) return;
  await assertScenarioTargets(service.injector, scenario, target.name);
}

/**
 * The seed a worker builds a round's fresh target with. Locally one target runs every round, its own
 * random draws moving on from round to round; a fresh target per round seeded alike would repeat the
 * same draws in every round (N copies of one trial). So each round gets a seed of its own.
 */
export function roundTargetSeed(seed: number, round: number): number {
  return deriveSeed(seed, `trials.round.${round}.target`);
}

/** what a worker sends back: the round's trials and the calls its target's proxies saw, attributed there */
export interface TrialRoundResult {
  status: 'passed' | 'error' | 'interrupted' | 'stopped';
  error?: string;
  trials: TrialRecord[];
  faults: FaultTally;
  /** null when the target records no calls */
  calls: { byTrial: Record<string, CallRecord[]>; unattributed: CallRecord[] } | null;
  dropped: number | null;
  /** marker sightings between the round's trials; null when the target keeps no marker book */
  unattributed_markers: MarkerCounts | null;
}

/**
 * A worker's run of one round: the target (fresh, built by the worker from `request.target`) started,
 * healthy, the round's blocks run in order, their calls read and attributed here (the trials' windows
 * are this machine's clock), the target stopped.
 */
export async function runTrialRoundOnTarget(
  target: Target,
  request: QueuedTrialRound,
  signal: AbortSignal,
  clock: Clock = systemClock,
): Promise<TrialRoundResult> {
  assertHasTasks(target);
  const { scenario } = request;
  return runOnTarget<TrialRoundResult>(
    target,
    { clock },
    {
      check: () => checkScenarioSupported(target, scenario),
      async run(service) {
        await checkScenarioTargets(service, target, scenario);
        await waitHealthy(target.observer, clock, request.recovery_deadline_ms, signal);
        const since = target.calls?.calls().next ?? 0;
        const trials: TrialRecord[] = [];
        const faults: FaultTally = { applied: 0, failed: 0 };
        const markers = target.markers ? watchMarkers(() => target.markers!()) : undefined;
        for (const block of request.blocks) {
          if (signal.aborted) break;
          const done = await runBlock(block, {
            service,
            target,
            scenario,
            seed: request.seed,
            clock,
            deadlineMs: request.recovery_deadline_ms,
            signal,
            markers,
          });
          trials.push(...done.trials);
          addFaults(faults, done.faults);
        }
        let calls: TrialRoundResult['calls'] = null;
        let dropped: number | null = null;
        if (target.calls) {
          const read = target.calls.calls(since);
          const attribution = attributeCalls(read.records, trials);
          calls = { byTrial: Object.fromEntries(attribution.byTrial), unattributed: attribution.unattributed };
          dropped = read.dropped;
        }
        return {
          status: signal.aborted ? 'interrupted' : 'passed',
          trials,
          faults,
          calls,
          dropped,
          unattributed_markers: markers ? markers.unattributed() : null,
        };
      },
    },
  );
}
