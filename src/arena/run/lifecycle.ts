/**
 * The run lifecycle that scenario and survival runs share: measure → emit →
 * warmup → the caller's fault schedule → cooldown → recoveries settle → revert
 * → invariant checks → gate → outcome. The caller supplies only what differs
 * (a scripted schedule, a random plan) and builds its own report from the
 * outcome. Every exit path (end, timeout, abort, error) reverts the faults
 * still active and still returns an outcome; nothing is printed, progress goes
 * out as RunEvents.
 */
import type { Clock, TimerHandle } from '../../shared/clock.js';
import { errorMessage, isArenaError } from '../../shared/errors.js';
import { formatDuration } from '../../shared/duration.js';
import { keepAliveWhile } from '../../shared/keep-alive.js';
import type { Result } from '../action.js';
import type { ActiveFault, TargetObserver } from '../providers.js';
import type { GateOutcome, LiveScore, RunEvent, RunEventListener, RunStatus, ScoreReport } from '../report.js';
import type { RunService } from './service-port.js';
import { DEFAULT_SNAPSHOT_INTERVAL_MS, startMeasurement, startSnapshots } from '../measure/index.js';
import { gateOutcome, type GateOn } from '../score.js';
import type { CallLedgerReader } from '../../protocol/calls.js';
import type { StopSources } from '../safety/checks.js';
import { usableStopSources } from '../safety/sources.js';
import { startStopWatch, type StopWatch } from '../safety/watch.js';
import type { StopCheckError, StopWhen, StoppedBy } from '../safety/types.js';

/** snapshots never come faster than this, whatever the caller asks */
const MIN_SNAPSHOT_INTERVAL_MS = 10;

export interface RunLifecycleOptions {
  kind: 'scenario' | 'survival';
  name: string;
  seed: number;
  service: RunService;
  observer: TargetObserver;
  clock: Clock;
  /**
   * the caller's abort (Ctrl-C, server shutdown, a stop request): faults reverted, status `interrupted`, or
   * `stopped` when its reason is a StoppedError (an emergency stop)
   */
  signal?: AbortSignal | undefined;
  onEvent?: RunEventListener | undefined;
  /** steady state measured before the schedule starts; recovery watched after it ends */
  warmupMs: number;
  cooldownMs: number;
  /** warmup + schedule + cooldown as planned: what progress is measured against */
  plannedMs: number;
  /** past this the run ends with status `error` */
  timeoutMs?: number | undefined;
  pollIntervalMs?: number | undefined;
  recoveryDeadlineMs?: number | undefined;
  /** how often a `snapshot` event is emitted (default DEFAULT_SNAPSHOT_INTERVAL_MS) */
  snapshotIntervalMs?: number | undefined;
  /** the gate: below it the run fails */
  minScore?: number | undefined;
  gate?: GateOn | undefined;
  /** the caller's own verdict beyond the gate (a scenario expectation that did not hold) */
  failed?: () => boolean;
  /**
   * a fault with a duration holds the timeline (DESIGN §4): the cooldown starts once the last timed
   * fault has ended or been reverted (scenarios; survival times its own cooldown)
   */
  holdTimedFaults?: boolean;
  /** the caller's reason the run proved nothing (every fault failed to apply), or undefined */
  inconclusive?: () => string | undefined;
  /** stop conditions (DESIGN §16): when one trips the run ends early, faults reverted, status `failed` */
  stopWhen?: StopWhen | undefined;
  /** the target's call ledger, for `spend_above` */
  calls?: CallLedgerReader | undefined;
  /** where a condition's `token_env` is read */
  env?: Record<string, string | undefined> | undefined;
  /** replaces where the conditions read from (tests) */
  stopSources?: StopSources | undefined;
}

/** what the caller's schedule works with */
export interface RunContext {
  /** aborted by the caller's signal, the timeout, or an error: stop scheduling */
  signal: AbortSignal;
  /** ms since the run started, unrounded (survival measures its drift from it) */
  elapsed(): number;
  /** ms since the run started, whole: what the lifecycle's events carry */
  rel(): number;
  /** one action ran (or was skipped, `injected` false): told to the listener and, when injected, to the recovery measurement */
  action(label: string, result: Result, atMs: number, injected: boolean, expectFailure?: boolean): void;
}

export interface RunOutcome {
  status: RunStatus;
  /** set when the run was interrupted, timed out, hit an error, or could not revert */
  error?: string;
  /** set when the status is `inconclusive`: what was not measured */
  inconclusive_why?: string;
  score: ScoreReport;
  gate?: GateOutcome;
  /** faults still active when the run ended, reverted by it ([] when none were) */
  reverted: ActiveFault[];
  /** timed faults the run's end (timeout, abort, error) cut short: planned and actual duration */
  cut: CutFault[];
  started_at: string;
  /** ms since the run started, whole, when the outcome was settled */
  elapsed_ms: number;
  /** set when a stop condition ended the run early */
  stopped_by?: StoppedBy;
  /** conditions that could not be evaluated and were skipped (`on_error: continue`) */
  stop_check_errors?: StopCheckError[];
}

export interface CutFault {
  id: string;
  kind: string;
  target: string;
  planned_ms: number;
  /** from injection to the revert that cut it, as the arena timed it */
  actual_ms?: number;
}

/** how often the timeline looks whether its timed faults have ended */
const HOLD_POLL_MS = 50;
/** a timed fault is given this long past its planned end (by the arena's clock) to be seen ended */
const HOLD_GRACE_MS = 1000;

export function runLifecycle(
  options: RunLifecycleOptions,
  schedule: (ctx: RunContext) => Promise<void>,
): Promise<RunOutcome> {
  // the clock's timers do not hold the process open; a run being awaited must
  return keepAliveWhile(() => lifecycle(options, schedule));
}

async function lifecycle(
  options: RunLifecycleOptions,
  schedule: (ctx: RunContext) => Promise<void>,
): Promise<RunOutcome> {
  const { clock, service } = options;
  const stopSources = options.stopWhen
    ? await usableStopSources(options.stopWhen, {
        runName: options.name,
        observer: options.observer,
        calls: options.calls,
        env: options.env,
        sources: options.stopSources,
        agents: () => service.injector.agents(),
      })
    : undefined;
  let t0 = clock.now();
  const startedAt = clock.wallNow().toISOString();
  const elapsed = () => clock.now() - t0;
  const rel = () => Math.max(0, Math.round(elapsed()));
  let actions = 0;
  const emit = (event: RunEvent) => {
    if (event.type === 'action') actions += 1;
    try {
      options.onEvent?.(event);
    } catch {
      // a broken listener must not break the run (or leave faults behind)
    }
    try {
      service.runListener?.(event);
    } catch {
      // the same for the service's own listener
    }
  };

  // one internal signal: the caller's abort, the timeout, or an error
  const ac = new AbortController();
  let stopCause: 'interrupted' | 'timeout' | 'stopped' | undefined;
  const onAbort = () => {
    stopCause ??= 'interrupted';
    ac.abort(options.signal?.reason);
  };
  if (options.signal?.aborted) onAbort();
  else options.signal?.addEventListener('abort', onAbort, { once: true });
  let timeoutTimer: TimerHandle | undefined;
  if (options.timeoutMs !== undefined) {
    timeoutTimer = clock.setTimer(options.timeoutMs, () => {
      stopCause ??= 'timeout';
      ac.abort(new Error('timeout'));
    });
  }

  emit({
    type: 'run.started',
    at_ms: 0,
    kind: options.kind,
    name: options.name,
    seed: options.seed,
    planned_ms: options.plannedMs,
  });
  const measurement = await startMeasurement({
    observer: options.observer,
    clock,
    pollIntervalMs: options.pollIntervalMs,
    recoveryDeadlineMs: options.recoveryDeadlineMs,
    onRecovery: (recovery) => emit({ type: 'recovery', at_ms: rel(), recovery }),
  });
  // the run's time counts from here: nothing can be injected before the steady state is sampled, and
  // counting from before made the first fault of every run late by the sampling (a round trip on a
  // remote target), which set the p99 of a survival run's drift
  t0 = clock.now();
  const snapshots = startSnapshots({
    clock,
    injector: service.injector,
    measurement,
    everyMs: Math.max(MIN_SNAPSHOT_INTERVAL_MS, options.snapshotIntervalMs ?? DEFAULT_SNAPSHOT_INTERVAL_MS),
    rel,
    progress: () => (options.plannedMs > 0 ? Math.min(1, rel() / options.plannedMs) : 1),
    emit,
  });

  // stop conditions sample from here (a window needs its past) and trip once the first fault lands
  const watch: StopWatch | undefined =
    options.stopWhen && stopSources
      ? startStopWatch({
          stopWhen: options.stopWhen,
          sources: stopSources,
          clock,
          rel,
          onTrip: (stoppedBy) => {
            stopCause ??= 'stopped';
            ac.abort(new Error(`stopped by ${stoppedBy.condition}`));
          },
        })
      : undefined;

  // when each fault was injected (by the id the target gave it), to say how long a cut one really lasted
  const injectedAt = new Map<string, number>();
  // when the last timed fault is due to end, by the arena's clock: the hold never outlasts it by much
  let lastPlannedEnd = 0;
  const ctx: RunContext = {
    signal: ac.signal,
    elapsed,
    rel,
    action(label, result, atMs, injected, expectFailure) {
      const faultId = result.metadata?.fault_id;
      if (injected && typeof faultId === 'string') injectedAt.set(faultId, atMs);
      const planned = result.metadata?.duration_ms;
      if (injected && result.success && typeof planned === 'number')
        lastPlannedEnd = Math.max(lastPlannedEnd, atMs + planned);
      if (injected) measurement.faultInjected(result, label);
      if (injected && result.success) watch?.arm();
      emit({ type: 'action', at_ms: atMs, label, result, ...(expectFailure ? { expect_failure: true } : {}) });
    },
  };
  let failure: string | undefined;
  try {
    if (options.warmupMs > 0) {
      emit({ type: 'phase', at_ms: rel(), phase: 'warmup' });
      await clock.sleep(options.warmupMs, ac.signal);
    }
    emit({ type: 'phase', at_ms: rel(), phase: 'chaos' });
    await schedule(ctx);
    if (options.holdTimedFaults)
      await timedFaultsEnded(service, clock, ac.signal, () => lastPlannedEnd + HOLD_GRACE_MS - elapsed());
    if (!ac.signal.aborted && options.cooldownMs > 0) {
      emit({ type: 'phase', at_ms: rel(), phase: 'cooldown' });
      await clock.sleep(options.cooldownMs, ac.signal);
    }
  } catch (err) {
    // an abort's rejection is the abort itself; anything else is the run's error, and ends it
    if (!ac.signal.aborted) {
      failure = errorMessage(err);
      ac.abort(err);
    }
  }

  watch?.stop();
  emit({ type: 'phase', at_ms: rel(), phase: 'checks' });
  let reverted: ActiveFault[] = [];
  let revertFailure: string | undefined;
  let revertTried = false;
  const revert = async () => {
    revertTried = true;
    reverted = await service.injector.activeFaults().catch(() => []);
    try {
      await service.revertAll();
    } catch (err) {
      revertFailure = `reverting faults failed: ${errorMessage(err)}`;
    }
    for (const fault of reverted) emit({ type: 'fault.reverted', at_ms: rel(), fault });
  };
  let score: ScoreReport;
  try {
    // a finished run lets recoveries settle first; an abort (now or while waiting) stops the wait
    score = await measurement.finish({ signal: ac.signal, beforeChecks: revert });
  } finally {
    await snapshots.stop();
    timeoutTimer?.cancel();
    options.signal?.removeEventListener('abort', onAbort);
    // the measurement failed before its checks: the faults are reverted all the same
    if (!revertTried) await revert().catch(() => undefined);
  }
  await snapshots.take();

  const stopped =
    stopCause === 'timeout'
      ? `timed out after ${formatDuration(options.timeoutMs!)}`
      : stopCause === 'interrupted'
        ? interruptedText(options.signal?.reason, actions)
        : undefined;
  const errors = [stopped, failure, revertFailure].filter((e): e is string => e !== undefined);
  const gate = options.minScore === undefined ? undefined : gateOutcome(score, options.minScore, options.gate);
  // a broken promise fails the run whatever the score; nothing measured (or nothing applied) judges nothing
  const brokenInvariant = score.measurements.consistency.failed_checks.some((c) => c.gate !== false);
  const inconclusive =
    score.score === null ? (score.availability_why ?? 'nothing was measured') : options.inconclusive?.();
  let status: RunStatus;
  const stoppedBy = stopCause === 'stopped' ? watch?.stoppedBy() : undefined;
  if (stopCause === 'interrupted') status = isArenaError(options.signal?.reason, 'stopped') ? 'stopped' : 'interrupted';
  else if (errors.length > 0) status = 'error';
  // a stop condition tripped: the system was being hurt; whatever was measured, the verdict is failed
  else if (stoppedBy) status = 'failed';
  else if (options.failed?.() || brokenInvariant) status = 'failed';
  else if (inconclusive !== undefined) status = 'inconclusive';
  else if (gate && !gate.passed) status = 'failed';
  else status = 'passed';

  const endedAt = rel();
  const cut: CutFault[] = reverted
    .filter((f) => f.ends_at_ms !== undefined)
    .map((f) => {
      const at = injectedAt.get(f.id);
      return {
        id: f.id,
        kind: f.kind,
        target: f.target,
        // whole milliseconds: the difference of two fractional clock readings is not exact
        planned_ms: Math.max(0, Math.round(f.ends_at_ms! - f.started_at_ms)),
        ...(at !== undefined ? { actual_ms: Math.max(0, Math.round(endedAt - at)) } : {}),
      };
    });
  const outcome: RunOutcome = { status, score, reverted, cut, started_at: startedAt, elapsed_ms: endedAt };
  if (status === 'inconclusive') outcome.inconclusive_why = inconclusive!;
  if (errors.length > 0) outcome.error = errors.join('; ');
  if (gate) outcome.gate = gate;
  if (stoppedBy) outcome.stopped_by = stoppedBy;
  const checkErrors = watch?.errors() ?? [];
  if (checkErrors.length > 0) outcome.stop_check_errors = checkErrors;
  emit({ type: 'phase', at_ms: rel(), phase: 'done' });
  const finalScore: LiveScore = {
    availability: score.availability,
    recovery: score.recovery,
    consistency: score.consistency,
    score: score.score,
    pending_recoveries: 0,
    settled_recoveries: score.measurements.recovery.faults.length,
  };
  emit({
    type: 'run.finished',
    at_ms: rel(),
    status,
    score: finalScore,
    ...(stoppedBy ? { stopped_by: stoppedBy } : {}),
    ...(outcome.error !== undefined ? { error: outcome.error } : {}),
  });
  return outcome;
}

/**
 * Resolves once no fault with a duration is active (ended, or reverted by its resume), on abort, or
 * when the last one is overdue by its own clock (`left` ≤ 0): a target that stops answering cannot
 * hold the run for ever.
 */
async function timedFaultsEnded(
  service: RunService,
  clock: Clock,
  signal: AbortSignal,
  left: () => number,
): Promise<void> {
  while (!signal.aborted && left() > 0) {
    const active = await service.injector.activeFaults().catch(() => undefined);
    if (active && !active.some((f) => f.ends_at_ms !== undefined)) return;
    try {
      await clock.sleep(Math.max(1, Math.min(HOLD_POLL_MS, left())), signal);
    } catch {
      return;
    }
  }
}

/** "interrupted (SIGINT) after 3 action(s): faults reverted, partial report"; "stopped (…)" for an emergency stop */
function interruptedText(reason: unknown, actions: number): string {
  const why =
    typeof reason === 'string'
      ? reason
      : reason instanceof Error && reason.name !== 'AbortError'
        ? reason.message
        : 'aborted';
  const verb = isArenaError(reason, 'stopped') ? 'stopped' : 'interrupted';
  return `${verb} (${why}) after ${actions} action(s): faults reverted, partial report`;
}
