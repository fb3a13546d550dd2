/**
 * Runs one scenario against an ArenaService and returns its report:
 * warmup → actions → cooldown → recovery settles → faults reverted →
 * invariant checks. Every exit path (end, timeout, abort, error) reverts the
 * faults still active and still returns a report; an aborted run's status is
 * `interrupted`. Progress goes out as RunEvents; nothing is printed.
 */
import type { Clock, TimerHandle } from '../../shared/clock.js';
import { createRandom, randomSeed, type Random } from '../../shared/random.js';
import { RuntimeError, UsageError, errorMessage } from '../../shared/errors.js';
import { MAX_DURATION_MS, formatDuration, tryParseDuration } from '../../shared/duration.js';
import type { ActiveFault, TargetObserver } from '../providers.js';
import type { ActionOutcome, GateOutcome, RunEvent, RunEventListener, RunStatus, ScenarioReport, ScoreReport } from '../report.js';
import type { ArenaService } from '../service.js';
import { DEFAULT_SNAPSHOT_INTERVAL_MS, startMeasurement, startSnapshots } from '../measure/index.js';
import { gateOutcome, type GateOn } from '../score.js';
import { runSteps } from './schedule.js';
import type { Scenario } from './types.js';


export interface RunScenarioOptions {
  /** the target's observer; defaults to the service's */
  observer?: TargetObserver;
  /** overrides config.seed; a fresh seed (reported) when neither is given */
  seed?: number;
  clock?: Clock;
  random?: Random;
  /** abort → faults reverted, report with status `interrupted` */
  signal?: AbortSignal;
  onEvent?: RunEventListener;
  /** gate; overrides expect.min_score */
  minScore?: number;
  /** what the gate compares: the score (default) or the lower bound of its 95% interval */
  gate?: GateOn;
  /**
   * multiplies every timing the scenario states (delays, warmup, cooldown,
   * timeout, fault durations): 0.1 runs it ten times faster. Recovery
   * deadlines are not scaled: the target heals at its own speed.
   */
  timeScale?: number;
  pollIntervalMs?: number;
  /** overrides config.recovery_deadline (default 10 s) */
  recoveryDeadlineMs?: number;
  /** how often a `snapshot` event is emitted (default 100 ms) */
  snapshotIntervalMs?: number;
  /** the strategy in force, copied into the report */
  strategy?: Record<string, unknown>;
}

export async function runScenarioReport(service: ArenaService, scenario: Scenario, options: RunScenarioOptions = {}): Promise<ScenarioReport> {
  const observer = options.observer ?? service.observer;
  if (!observer) throw new RuntimeError('a scenario run needs a target observer to measure the score (pass options.observer)', 'no_observer');
  const timeScale = options.timeScale ?? 1;
  if (!(Number.isFinite(timeScale) && timeScale > 0)) throw new UsageError(`timeScale must be a positive number (got ${timeScale})`);
  const minScore = options.minScore ?? scenario.expect.min_score;
  if (minScore !== undefined && !(Number.isFinite(minScore) && minScore >= 0 && minScore <= 100)) {
    throw new UsageError(`min score must be a number from 0 to 100 (got ${minScore})`);
  }
  assertScaledTimings(scenario, timeScale);
  const clock = options.clock ?? service.clock;
  const seed = options.seed ?? scenario.config.seed ?? randomSeed();
  const random = options.random ?? createRandom(seed);
  const cfg = scenario.config;
  const scaled = (ms: number) => Math.round(ms * timeScale);
  const t0 = clock.now();
  const startedAt = clock.wallNow().toISOString();
  const rel = () => Math.max(0, Math.round(clock.now() - t0));
  const emit = (event: RunEvent) => {
    try {
      options.onEvent?.(event);
    } catch {
      // a broken listener must not break the run (or leave faults behind)
    }
  };

  // one internal signal: the caller's abort, the scenario timeout, or an error
  const ac = new AbortController();
  let stopCause: 'interrupted' | 'timeout' | undefined;
  const onAbort = () => {
    stopCause ??= 'interrupted';
    ac.abort(options.signal?.reason);
  };
  if (options.signal?.aborted) onAbort();
  else options.signal?.addEventListener('abort', onAbort, { once: true });
  let timeoutTimer: TimerHandle | undefined;
  if (cfg.timeout_ms !== undefined) {
    timeoutTimer = clock.setTimer(scaled(cfg.timeout_ms), () => {
      stopCause ??= 'timeout';
      ac.abort(new Error('timeout'));
    });
  }

  const plannedMs = scaled(cfg.warmup_ms + plannedActionsMs(scenario) + cfg.cooldown_ms);
  emit({ type: 'run.started', at_ms: 0, kind: 'scenario', name: scenario.name, seed, planned_ms: plannedMs });
  const measurement = await startMeasurement({
    observer,
    clock,
    pollIntervalMs: options.pollIntervalMs,
    recoveryDeadlineMs: options.recoveryDeadlineMs ?? cfg.recovery_deadline_ms,
    onRecovery: (recovery) => emit({ type: 'recovery', at_ms: rel(), recovery }),
  });

  const snapshots = startSnapshots({
    clock,
    injector: service.injector,
    measurement,
    everyMs: Math.max(10, options.snapshotIntervalMs ?? DEFAULT_SNAPSHOT_INTERVAL_MS),
    rel,
    progress: () => (plannedMs > 0 ? Math.min(1, rel() / plannedMs) : 1),
    emit,
  });
  // the clock's timers do not hold the process open; a run being awaited must
  const keepAlive = setInterval(() => undefined, 60_000);

  let outcomes: ActionOutcome[] = [];
  let error: string | undefined;
  try {
    emit({ type: 'phase', at_ms: rel(), phase: 'warmup' });
    await clock.sleep(scaled(cfg.warmup_ms), ac.signal);
    emit({ type: 'phase', at_ms: rel(), phase: 'chaos' });
    outcomes = await runSteps({
      service,
      scenario,
      clock,
      random,
      signal: ac.signal,
      timeScale,
      rel,
      onResult: (_step, o, executed) => {
        if (executed) measurement.faultInjected(o.result, o.label);
        emit({ type: 'action', at_ms: o.at_ms, label: o.label, result: o.result });
      },
    });
    if (!ac.signal.aborted) {
      emit({ type: 'phase', at_ms: rel(), phase: 'cooldown' });
      await clock.sleep(scaled(cfg.cooldown_ms), ac.signal);
    }
  } catch (err) {
    if (!ac.signal.aborted) {
      error = errorMessage(err);
      ac.abort(err);
    }
  }
  if (stopCause === 'timeout') error = `timed out after ${formatDuration(scaled(cfg.timeout_ms!))}`;
  if (stopCause === 'interrupted') error = 'interrupted: faults reverted, partial report';

  emit({ type: 'phase', at_ms: rel(), phase: 'checks' });
  let reverted: ActiveFault[] = [];
  const revert = async () => {
    reverted = await service.injector.activeFaults().catch(() => []);
    try {
      await service.revertAll();
    } catch (err) {
      error ??= `reverting faults failed: ${errorMessage(err)}`;
    }
    for (const fault of reverted) emit({ type: 'fault.reverted', at_ms: rel(), fault });
  };
  let score: ScoreReport;
  try {
    // a finished run lets recoveries settle first; an abort (now or while waiting) stops the wait
    score = await measurement.finish({ signal: ac.signal, beforeChecks: revert });
  } finally {
    await snapshots.stop();
    clearInterval(keepAlive);
    timeoutTimer?.cancel();
    options.signal?.removeEventListener('abort', onAbort);
    if (reverted.length === 0) await revert().catch(() => undefined);
  }
  await snapshots.take();

  const withExpectation = outcomes.filter((o) => o.met !== null);
  const passed = withExpectation.filter((o) => o.met === true).length;
  const failed = withExpectation.length - passed;
  const verified = failed === 0 && stopCause === undefined && error === undefined;
  const gate: GateOutcome | undefined = minScore === undefined ? undefined : gateOutcome(score, minScore, options.gate);
  let status: RunStatus;
  if (stopCause === 'interrupted') status = 'interrupted';
  else if (error !== undefined) status = 'error';
  else if (failed > 0 || (gate && !gate.passed)) status = 'failed';
  else status = 'passed';

  const report: ScenarioReport = {
    name: scenario.name,
    seed,
    status,
    verified,
    passed,
    failed,
    results: outcomes,
    score,
    started_at: startedAt,
    duration_ms: rel(),
    strategy: options.strategy ?? {},
  };
  if (scenario.description !== undefined) report.description = scenario.description;
  if (scenario.file !== undefined) report.file = scenario.file;
  if (gate) report.gate = gate;
  if (error !== undefined) report.error = error;
  // always present, [] when nothing was active: a report reader can tell "none" from "not recorded"
  report.reverted_faults = reverted;
  emit({ type: 'phase', at_ms: rel(), phase: 'done' });
  emit({ type: 'run.finished', at_ms: rel(), status });
  return report;
}

/** a time scale above 1 could stretch a valid 24 h timing past what a timer can hold: refuse it up front */
function assertScaledTimings(scenario: Scenario, timeScale: number): void {
  const cfg = scenario.config;
  const timings = [cfg.warmup_ms, cfg.cooldown_ms, cfg.timeout_ms ?? 0, ...scenario.actions.map((a) => a.delay_ms)];
  for (const a of scenario.actions) for (const key of ['duration', 'delay']) timings.push(tryParseDuration(a.action.metadata?.[key]) ?? 0);
  const longest = Math.max(...timings) * timeScale;
  if (longest > MAX_DURATION_MS) {
    throw new UsageError(`time scale ${timeScale} stretches a timing of ${scenario.name} to ${formatDuration(longest)}, over the 24h limit`, 'invalid_time_scale');
  }
}

/** a progress estimate: delays back to back, or spread over the slots when parallel */
function plannedActionsMs(scenario: Scenario): number {
  const total = scenario.actions.reduce((sum, a) => sum + a.delay_ms, 0);
  return scenario.config.parallel_actions ? Math.ceil(total / scenario.config.max_concurrent) : total;
}
