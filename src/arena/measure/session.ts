/**
 * A measurement window over a running target. Availability comes from the
 * target's workload counters sampled at the start and end of the window;
 * recovery from polling health after each disruptive fault; consistency from
 * the target's invariant checks at the end. Nothing here looks at whether an
 * injection "succeeded" except to count injections separately.
 */
import { mean, quantileSorted } from 'simple-statistics';
import { systemClock, type Clock, type TimerHandle } from '../../shared/clock.js';
import { errorMessage } from '../../shared/errors.js';
import type { Result } from '../action.js';
import type { HealthScope, InvariantCheck, TargetObserver, WorkloadCounters } from '../providers.js';
import type { FaultRecovery, LiveScore, ScoreMeasurements, ScoreReport } from '../report.js';
import { availabilityOf, calculateScore, recoveryOf, round1, roundScore, SCORE_WEIGHTS } from '../score.js';
import { recoverySpeed } from '../recovery-speed.js';
import { faultTarget, healthScopeFor } from './disruptive.js';
import type { WorkloadWindow } from '../workload-window.js';

export const DEFAULT_POLL_INTERVAL_MS = 50;
export const DEFAULT_RECOVERY_DEADLINE_MS = 10_000;

export interface MeasurementOptions {
  observer: TargetObserver;
  clock?: Clock;
  /** how often health is polled while a fault is unrecovered (default 50 ms) */
  pollIntervalMs?: number;
  /** a fault not healthy again this long after injection counts as not recovered (default 10 s) */
  recoveryDeadlineMs?: number;
  /** told about each fault as soon as it recovers or misses its deadline */
  onRecovery?: (recovery: FaultRecovery) => void;
  /** which faults are disruptive and what to poll; default per measure/disruptive.ts */
  scopeFor?: (result: Result) => HealthScope | undefined;
}

export interface FinishOptions {
  /** stop waiting for unrecovered faults: those still inside their deadline are `interrupted`, not counted */
  signal?: AbortSignal;
  /** wait for unrecovered faults until their deadlines (default true) */
  waitForRecovery?: boolean;
  /** runs after recovery is settled and before the invariant checks (e.g. revert remaining faults) */
  beforeChecks?: () => Promise<void>;
}

export interface MeasurementSession {
  faultInjected(result: Result, label?: string): void;
  liveScore(): Promise<LiveScore>;
  recoveries(): FaultRecovery[];
  /** disruptive faults still being watched */
  pendingCount(): number;
  finish(options?: FinishOptions): Promise<ScoreReport>;
}

interface Pending {
  recovery: FaultRecovery;
  scope: HealthScope;
  injectedAt: number;
  /** not yet checked once: healthy at the first check means it never went down */
  isFirstCheck: boolean;
  /** its health check in flight */
  checking?: Promise<void>;
}

/** every request sent in the window, each counted once; one that never ended counts as failed */
async function settleWindow(window: WorkloadWindow, signal?: AbortSignal): Promise<ScoreMeasurements['requests']> {
  const atEnd = window.counts();
  const closed = await window.close(signal);
  return {
    total: closed.sent,
    succeeded: closed.succeeded,
    failed: closed.failed + closed.pending,
    in_flight_at_end: {
      count: atEnd.pending,
      succeeded: closed.succeeded - atEnd.succeeded,
      failed: closed.failed - atEnd.failed,
      unfinished: closed.pending,
    },
  };
}

/** Samples the workload counters once, so availability counts only what happens from here on. */
export async function startMeasurement(options: MeasurementOptions): Promise<MeasurementSession> {
  const observer = options.observer;
  const clock = options.clock ?? systemClock;
  const pollMs = Math.max(1, options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS);
  const deadlineMs = options.recoveryDeadlineMs ?? DEFAULT_RECOVERY_DEADLINE_MS;
  const scopeFor = options.scopeFor ?? healthScopeFor;
  const start: WorkloadCounters = { ...(await observer.workload()) };
  // counts by request sent, when the target can: a request still in flight at the end is waited for
  const window = observer.openWorkloadWindow?.();
  const injections = { total: 0, succeeded: 0, failed: 0 };
  const settled: FaultRecovery[] = [];
  let pending: Pending[] = [];
  let pollTimer: TimerHandle | undefined;
  let drained: (() => void) | undefined;
  let finished = false;

  // a target that cannot answer (mid-restart, unreachable) is not healthy
  const isHealthy = async (scope: HealthScope) => {
    try {
      return (await observer.health(scope)).healthy;
    } catch {
      return false;
    }
  };

  const settle = (p: Pending, recovered: boolean, at: number, isInterrupted = false) => {
    p.recovery.recovered = recovered;
    if (recovered) p.recovery.recovery_ms = Math.max(0, Math.round(at - p.injectedAt));
    if (isInterrupted) p.recovery.interrupted = true;
    settled.push(p.recovery);
    options.onRecovery?.({ ...p.recovery });
  };

  // each pending fault is checked on its own, at most one check of it at a time: a slow check of one
  // (an LLM probe held to its timeout) neither delays another fault's next check nor its recovery time
  const inFlight = new Set<Promise<void>>();
  const check = (p: Pending) => {
    const run = isHealthy(p.scope).then((healthy) => {
      p.checking = undefined;
      if (finished || !pending.includes(p)) return;
      const now = clock.now();
      if (healthy) settle(p, true, p.isFirstCheck ? p.injectedAt : now);
      else if (now - p.injectedAt >= deadlineMs) settle(p, false, now);
      else {
        p.isFirstCheck = false;
        return;
      }
      pending = pending.filter((other) => other !== p);
      if (pending.length === 0) drained?.();
    });
    p.checking = run;
    inFlight.add(run);
    void run.finally(() => inFlight.delete(run));
  };

  const poll = () => {
    pollTimer = undefined;
    for (const p of pending) if (!p.checking) check(p);
    schedule();
  };

  const schedule = () => {
    if (pending.length === 0) {
      drained?.();
      return;
    }
    if (pollTimer || finished) return;
    if (pending.some((p) => p.isFirstCheck && !p.checking)) {
      pollTimer = clock.setTimer(0, poll);
      return;
    }
    const nextDeadline = Math.min(...pending.map((p) => p.injectedAt + deadlineMs)) - clock.now();
    pollTimer = clock.setTimer(Math.max(0, Math.min(pollMs, nextDeadline)), poll);
  };

  // a target that stops answering keeps what was last measured: nothing is made up for the gap
  let lastSample: WorkloadCounters = start;
  const requests = async (): Promise<ScoreMeasurements['requests']> => {
    if (window) {
      const c = window.counts();
      return { total: c.succeeded + c.failed, succeeded: c.succeeded, failed: c.failed };
    }
    let now = lastSample;
    try {
      now = await observer.workload();
      lastSample = now;
    } catch {
      // unreachable right now: the health polls of its faults fail and count against recovery
    }
    const total = Math.max(0, now.requests - start.requests);
    const succeeded = Math.max(0, now.succeeded - start.succeeded);
    return { total, succeeded, failed: Math.max(0, now.failed - start.failed) };
  };

  const recoveryMeasurements = (includePending: boolean): ScoreMeasurements['recovery'] => {
    const faults = includePending ? [...settled, ...pending.map((p) => p.recovery)] : [...settled];
    const times = faults.filter((f) => f.recovered && f.recovery_ms !== undefined).map((f) => f.recovery_ms!);
    const sorted = [...times].sort((a, b) => a - b);
    const mttr = sorted.length ? mean(sorted) : null;
    // a fault the stopped run never let finish recovering is no failed recovery: reported, not scored
    const interrupted = faults.filter((f) => f.interrupted).length;
    return {
      disruptive_faults: faults.length - interrupted,
      ...(interrupted > 0 ? { interrupted } : {}),
      recovered: times.length,
      speed: round1(recoverySpeed(mttr)),
      mttr_mean_ms: mttr === null ? null : Math.round(mttr),
      mttr_p50_ms: sorted.length ? Math.round(quantileSorted(sorted, 0.5)) : null,
      mttr_p95_ms: sorted.length ? Math.round(quantileSorted(sorted, 0.95)) : null,
      faults: faults.map((f) => ({ ...f })),
    };
  };

  return {
    faultInjected(result, label) {
      if (finished) return;
      injections.total += 1;
      if (result.success) injections.succeeded += 1;
      else injections.failed += 1;
      // a fault that was not applied disrupted nothing
      if (!result.success) return;
      const scope = scopeFor(result);
      if (!scope) return;
      const recovery: FaultRecovery = {
        action_id: result.action.id,
        type: result.action.type,
        target: faultTarget(result),
        recovered: false,
      };
      if (label !== undefined) recovery.label = label;
      // the fault took effect when the provider returned; healthy at the first check = recovered at once
      pending.push({ recovery, scope, injectedAt: clock.now(), isFirstCheck: true });
      schedule();
    },

    async liveScore() {
      // a fault still recovering is pending, not failed: counting it as unrecovered showed "recovery 0.0" mid-recovery
      const m: ScoreMeasurements = {
        requests: await requests(),
        recovery: recoveryMeasurements(false),
        consistency: { total: 0, passed: 0, failed_checks: [] },
      };
      const exactRecovery = recoveryOf(m);
      const recovery = round1(exactRecovery);
      const pendingRecoveries = pending.length;
      if (m.requests.total === 0)
        return {
          availability: null,
          recovery,
          consistency: null,
          score: null,
          pending_recoveries: pendingRecoveries,
          settled_recoveries: settled.length,
        };
      const exactAvailability = availabilityOf(m);
      // consistency is only known after the final checks: the live score weighs the other two
      const score = roundScore(
        (SCORE_WEIGHTS.availability * exactAvailability + SCORE_WEIGHTS.recovery * exactRecovery) /
          (SCORE_WEIGHTS.availability + SCORE_WEIGHTS.recovery),
      );
      return {
        availability: round1(exactAvailability),
        recovery,
        consistency: null,
        score,
        pending_recoveries: pendingRecoveries,
        settled_recoveries: settled.length,
      };
    },

    recoveries: () => [...settled, ...pending.map((p) => p.recovery)].map((f) => ({ ...f })),

    pendingCount: () => pending.length,

    async finish(opts = {}) {
      // the window ends now; requests sent in it and still in flight end by their own timeout (failed) or the abort
      const windowRequests = window ? settleWindow(window, opts.signal) : requests();
      const wait = opts.waitForRecovery ?? true;
      if (pending.length > 0 && wait && !opts.signal?.aborted) {
        await new Promise<void>((resolve) => {
          const done = () => {
            opts.signal?.removeEventListener('abort', done);
            drained = undefined;
            resolve();
          };
          drained = done;
          opts.signal?.addEventListener('abort', done, { once: true });
        });
      }
      finished = true;
      pollTimer?.cancel();
      pollTimer = undefined;
      await Promise.all([...inFlight]);
      const last = [...pending];
      pending = [];
      const healthy = await Promise.all(last.map((p) => isHealthy(p.scope)));
      const now = clock.now();
      // an aborted wait cut short the faults still unhealthy and inside their deadline: interrupted, not failed
      const isCut = opts.signal?.aborted === true;
      last.forEach((p, i) => {
        const isInTime = now - p.injectedAt < deadlineMs;
        settle(
          p,
          healthy[i]! && isInTime,
          p.isFirstCheck && healthy[i] ? p.injectedAt : now,
          isCut && !healthy[i] && isInTime,
        );
      });
      if (opts.beforeChecks) await opts.beforeChecks();
      let checks: InvariantCheck[];
      try {
        checks = await observer.checkInvariants();
      } catch (err) {
        checks = [{ name: 'invariant checks', passed: false, detail: `could not run: ${errorMessage(err)}` }];
      }
      const measurements: ScoreMeasurements = {
        requests: await windowRequests,
        recovery: recoveryMeasurements(false),
        consistency: {
          total: checks.length,
          passed: checks.filter((c) => c.passed).length,
          failed_checks: checks
            .filter((c) => !c.passed)
            .map((c) => ({
              name: c.name,
              ...(c.detail ? { detail: c.detail } : {}),
              ...(c.gate === false ? { gate: false as const } : {}),
            })),
        },
      };
      return calculateScore(measurements, injections);
    },
  };
}
