/**
 * The stop-condition watch (DESIGN §16): runs every condition's check on its own beat (at most
 * 250 ms apart unless a Prometheus `every` says otherwise), from the start of the run so a window
 * has its past, and trips from the moment the first fault lands (`arm`). A slow check never holds
 * up the others: each runs when it is due and not still in flight. The first trip wins and is told
 * once; a check that cannot be evaluated trips it too under `on_error: stop` (the default).
 *
 * A plain module: the run lifecycle uses it, and so can anything else that runs faults (trials).
 */
import type { Clock, TimerHandle } from '../../shared/clock.js';
import { errorMessage } from '../../shared/errors.js';
import { createCheck, missingSource, type Check, type StopSources } from './checks.js';
import { describeCondition } from './stop-when.js';
import type { StopCheckError, StoppedBy, StopWhen } from './types.js';

/** why a run stopped early: in the report (`stopped_by`) and on the run.finished event */

export interface StopWatchOptions {
  stopWhen: StopWhen;
  sources: StopSources;
  clock: Clock;
  /** ms since the run started, for `at_ms` */
  rel: () => number;
  /** told once, on the first trip */
  onTrip: (stoppedBy: StoppedBy) => void;
  /** under `on_error: continue`: a check that could not be evaluated (told each time) */
  onCheckError?: (condition: string, reason: string) => void;
}

export interface StopWatch {
  /** the first fault has landed: from now on a condition can trip */
  arm(): void;
  readonly isArmed: boolean;
  /** no more checks; a check in flight finishes but trips nothing */
  stop(): void;
  /** set once a condition tripped */
  stoppedBy(): StoppedBy | undefined;
  /** the checks skipped under `on_error: continue` ([] when none was) */
  errors(): StopCheckError[];
}

/** Every condition this run cannot evaluate, each with why (refused before anything is injected). */
export function stopWhenProblems(stopWhen: StopWhen, sources: StopSources): string[] {
  return stopWhen.conditions.flatMap((c) => {
    const why = missingSource(c, sources);
    return why === undefined ? [] : [`stop_when ${describeCondition(c)}: ${why}`];
  });
}

export function startStopWatch(options: StopWatchOptions): StopWatch {
  const { clock, stopWhen } = options;
  const entries = stopWhen.conditions.map((condition) => ({
    check: createCheck(condition, options.sources) as Check,
    name: describeCondition(condition),
    due: clock.now(),
    inFlight: false,
  }));
  const beat = Math.max(1, Math.min(...entries.map((e) => e.check.everyMs)));
  let armed = false;
  let stopped = false;
  let tripped: StoppedBy | undefined;
  let timer: TimerHandle | undefined;
  const errors = new Map<string, StopCheckError>();

  const trip = (stoppedBy: StoppedBy) => {
    if (tripped || stopped) return;
    tripped = stoppedBy;
    stopped = true;
    timer?.cancel();
    options.onTrip(stoppedBy);
  };

  const runOne = async (entry: (typeof entries)[number]) => {
    entry.inFlight = true;
    const wasArmed = armed;
    const verdict = await entry.check
      .run(clock.now(), wasArmed)
      .catch((err: unknown) => ({ kind: 'error', reason: errorMessage(err) }) as const);
    entry.inFlight = false;
    if (stopped) return;
    // the first fault landed while this check ran unarmed: it runs again now, not a beat later
    if (!wasArmed) {
      if (armed) {
        entry.due = clock.now() + entry.check.everyMs;
        void runOne(entry);
      }
      return;
    }
    if (verdict.kind === 'trip')
      trip({
        condition: entry.name,
        kind: entry.check.condition.kind,
        value: verdict.value,
        at_ms: options.rel(),
        reason: verdict.reason,
      });
    else if (verdict.kind === 'error') {
      if (stopWhen.onError === 'stop')
        trip({
          condition: entry.name,
          kind: entry.check.condition.kind,
          value: null,
          at_ms: options.rel(),
          reason: `could not be evaluated (on_error: stop): ${verdict.reason}`,
        });
      else {
        const seen = errors.get(entry.name) ?? { condition: entry.name, count: 0, last: '' };
        seen.count += 1;
        seen.last = verdict.reason;
        errors.set(entry.name, seen);
        options.onCheckError?.(entry.name, verdict.reason);
      }
    }
  };

  const tick = () => {
    timer = undefined;
    if (stopped) return;
    const now = clock.now();
    for (const entry of entries) {
      if (entry.inFlight || entry.due > now) continue;
      entry.due = now + entry.check.everyMs;
      void runOne(entry);
    }
    timer = clock.setTimer(beat, tick);
  };
  if (entries.length > 0) tick();
  else stopped = true;

  return {
    arm() {
      if (armed || stopped) return;
      armed = true;
      // the first fault landed: every check runs now rather than at its next beat
      for (const entry of entries) entry.due = clock.now();
      timer?.cancel();
      tick();
    },
    get isArmed() {
      return armed;
    },
    stop() {
      stopped = true;
      timer?.cancel();
      timer = undefined;
    },
    stoppedBy: () => tripped,
    errors: () => [...errors.values()].map((e) => ({ ...e })),
  };
}

/** "stopped by availability_below 80% over 2000ms at 3.21s: availability 42.5% … is below 80%": one wording for every view */
export function stoppedByText(s: StoppedBy): string {
  return `stopped by ${s.condition} at ${(s.at_ms / 1000).toFixed(2)}s: ${s.reason}`;
}
