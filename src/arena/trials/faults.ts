/**
 * The faults of one faulted block (./plan.ts): the scenario's actions, each applied at the block's
 * start and held for the whole block (a timed fault gets a duration longer than any block and is
 * reverted when the block ends; its lease still ends it if the arena dies), with `--intensity` set as
 * the per-call `probability` of its llm_failure and tool_fault actions. After the block every fault is
 * reverted and the target must be healthy again before the next block, so no clean trial runs while
 * a fault, or the damage it left, still acts.
 */
import type { Clock } from '../../shared/clock.js';
import { parseDuration } from '../../shared/duration.js';
import { RuntimeError, UsageError } from '../../shared/errors.js';
import type { Random } from '../../shared/random.js';
import type { ActionType, Result } from '../action.js';
import { createAction } from '../actions.js';
import { DEFAULT_FAULT_DURATION_MS } from '../injector.js';
import type { TargetObserver } from '../providers.js';
import { RANDOM_TARGET } from '../scenario/schedule.js';
import type { ScenarioActionSpec, Scenario } from '../scenario/types.js';
import type { ArenaService } from '../service.js';
import type { Arm } from './plan.js';

/** longer than any block: the block's end reverts the fault, not its timer */
export const BLOCK_HOLD_MS = 3_600_000;
const TIMED: ReadonlySet<ActionType> = new Set([
  'pause_agent',
  'slow_agent',
  'network_partition',
  'tool_timeout',
  'llm_failure',
  'tool_fault',
]);
/** the quiet faults `--intensity` turns up and down */
export const INTENSITY_TYPES: ReadonlySet<ActionType> = new Set(['llm_failure', 'tool_fault']);

export function assertIntensityApplies(scenario: Scenario | undefined, intensities: readonly number[]): void {
  if (intensities.length === 0) return;
  if (!scenario)
    throw new UsageError('--intensity needs --scenario: it sets the probability of the scenario’s faults', {
      code: 'invalid_trials',
    });
  if (!scenario.actions.some((a) => INTENSITY_TYPES.has(a.action.type)))
    throw new UsageError(
      `--intensity sets the per-call probability of llm_failure and tool_fault actions; scenario ${scenario.name} has none`,
      { code: 'invalid_trials' },
    );
}

/** the scenario's actions as one block applies them */
export function blockActions(scenario: Scenario, arm: Arm): ScenarioActionSpec[] {
  return scenario.actions.map(({ action }) => {
    const metadata: Record<string, unknown> = { ...action.metadata };
    if (TIMED.has(action.type)) {
      // slow_agent's delay defaults to its duration: keep the delay the scenario meant
      if (action.type === 'slow_agent' && metadata.delay === undefined)
        metadata.delay = metadata.duration === undefined ? DEFAULT_FAULT_DURATION_MS : parseDuration(metadata.duration);
      metadata.duration = BLOCK_HOLD_MS;
    }
    if (arm.intensity !== undefined && INTENSITY_TYPES.has(action.type)) metadata.probability = arm.intensity;
    return { ...action, metadata };
  });
}

export async function applyBlockFaults(
  service: ArenaService,
  actions: readonly ScenarioActionSpec[],
  random: Random,
  clock: Clock,
): Promise<Result[]> {
  const results: Result[] = [];
  for (const spec of actions) {
    const target = spec.target_id === RANDOM_TARGET ? await randomWorker(service, random) : (spec.target_id ?? '');
    const action = createAction(spec.type, target, {
      created_at: clock.wallNow().toISOString(),
      ...(spec.source_id !== undefined ? { source_id: spec.source_id } : {}),
      ...(spec.metadata !== undefined ? { metadata: spec.metadata } : {}),
    });
    results.push(await service.execute(action));
  }
  return results;
}

async function randomWorker(service: ArenaService, random: Random): Promise<string> {
  const workers = (await service.injector.agents().catch(() => []))
    .filter((a) => (a.role === 'leader' || a.role === 'worker') && a.status === 'running')
    .map((a) => a.id)
    .sort();
  return workers.length > 0 ? random.pick(workers) : RANDOM_TARGET;
}

/** reverts every fault, then waits until the target is healthy; throws when it does not heal in time */
export async function endBlockFaults(
  service: ArenaService,
  observer: TargetObserver,
  clock: Clock,
  deadlineMs: number,
  signal?: AbortSignal,
): Promise<void> {
  await service.revertAll();
  await waitHealthy(observer, clock, deadlineMs, signal);
}

export async function waitHealthy(
  observer: TargetObserver,
  clock: Clock,
  deadlineMs: number,
  signal?: AbortSignal,
): Promise<void> {
  const until = clock.now() + deadlineMs;
  for (;;) {
    const report = await observer.health({ kind: 'target' }).catch((err: unknown) => ({
      healthy: false,
      problems: [String((err as Error)?.message ?? err)],
    }));
    if (report.healthy) return;
    if (clock.now() >= until)
      throw new RuntimeError(
        `the target is not healthy ${deadlineMs}ms after a faulted block's faults were reverted, so the next block cannot start clean: ${report.problems.join('; ')}`,
        { code: 'target_not_healthy' },
      );
    if (signal?.aborted) return;
    await clock.sleep(100, signal).catch(() => undefined);
  }
}
