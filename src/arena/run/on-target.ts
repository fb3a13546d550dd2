/**
 * A run on a whole target (embedded, process, remote alike): build its arena
 * service, start it, check that it can apply the faults the run will ask for,
 * run, then revert every fault and stop it whatever happened in between. A
 * target that cannot start or cannot take the run is stopped before the error
 * goes up; a revert or stop that fails after the run is told in its report.
 */
import type { Clock } from '../../shared/clock.js';
import { RuntimeError, errorMessage, isArenaError } from '../../shared/errors.js';
import type { EvidenceStore, EvolutionBridge, FlightBridge } from '../bridges.js';
import type { EventStore } from '../event-store.js';
import { Injector } from '../injector.js';
import type { ProxyReport, Target } from '../providers.js';
import { isCutShort, type RunStatus } from '../report.js';
import { ArenaService } from '../service.js';

export interface TargetRunOptions {
  clock?: Clock | undefined;
  eventStore?: EventStore | undefined;
  evidenceStore?: EvidenceStore | undefined;
  flightBridge?: FlightBridge | undefined;
  evolutionBridge?: EvolutionBridge | undefined;
  /** the strategy in force; default what the started target describes */
  strategy?: Record<string, unknown> | undefined;
}

interface TargetRunReport {
  status: RunStatus;
  error?: string;
  proxies?: ProxyReport[];
}

export interface TargetRunSteps<R extends TargetRunReport> {
  /** once the target started (a remote one says only then what it supports): throws when it cannot take the run */
  check(): void;
  run(service: ArenaService, strategy: Record<string, unknown>): Promise<R>;
}

export async function runOnTarget<R extends TargetRunReport>(
  target: Target,
  options: TargetRunOptions,
  steps: TargetRunSteps<R>,
): Promise<R> {
  const service = new ArenaService({
    injector: new Injector(target.runtime, target.dag),
    observer: target.observer,
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.eventStore ? { eventStore: options.eventStore } : {}),
    ...(options.evidenceStore ? { evidenceStore: options.evidenceStore } : {}),
    ...(options.flightBridge ? { flightBridge: options.flightBridge } : {}),
    ...(options.evolutionBridge ? { evolutionBridge: options.evolutionBridge } : {}),
  });
  await startTarget(target, {}, () => steps.check());
  let report: R | undefined;
  try {
    report = await steps.run(service, options.strategy ?? (await target.describe()).strategy);
  } finally {
    // reverted and stopped whatever happened; a failure here is told in the report, not lost with it
    // (when the run itself threw, that error is the one the caller sees)
    const problems = new Set<string>();
    await target.runtime.revertAll().catch((err: unknown) => problems.add(errorMessage(err)));
    // what the proxies saw, read once every fault is reverted and before stopping closes them
    let proxies: ProxyReport[] | undefined;
    try {
      proxies = report ? target.proxies?.() : undefined;
    } catch {
      // the proxies' stats are extra: the run's report is not lost to them
    }
    if (report && proxies && proxies.length > 0) report.proxies = proxies;
    // stopping reverts too: the same failure is said once
    await target.stop().catch((err: unknown) => problems.add(errorMessage(err)));
    if (report && problems.size > 0) {
      const said = report.error ?? '';
      const fresh = [...problems].filter((p) => !said.includes(p));
      if (fresh.length > 0) report.error = [said, ...fresh].filter(Boolean).join('; ');
      if (!isCutShort(report.status)) report.status = 'error';
    }
  }
  return report;
}

/**
 * Starts a target (and runs `check` once it is up); when either fails the target is stopped again and
 * the error is an ArenaError (`target_start_failed` when the target threw something else).
 */
export async function startTarget(
  target: Target,
  options: Parameters<Target['start']>[0] = {},
  check?: () => void,
): Promise<void> {
  try {
    await target.start(options);
    check?.();
  } catch (err) {
    await target.stop().catch(() => undefined);
    throw isArenaError(err)
      ? err
      : new RuntimeError(`the ${target.name} target did not start: ${errorMessage(err)}`, {
          code: 'target_start_failed',
          cause: err,
        });
  }
}
