/**
 * The steady-state workload: HTTP requests at the target file's rate, each
 * with its timeout, each counted once when it ends (success = the answer meets
 * the expectation). This is what availability is measured from.
 */
import { systemClock, type Clock, type TimerHandle } from '../../shared/clock.js';
import type { WorkloadCounters } from '../../arena/providers.js';
import { createWorkloadTally, type WorkloadWindow } from '../../arena/workload-window.js';
import { checkAnswer } from './expect.js';
import { sendRequest } from './request.js';
import type { OutboundAnswer as HttpAnswer } from '../../shared/http-call.js';
import type { ProcessTargetSpec } from './spec.js';

type WorkloadSpec = NonNullable<ProcessTargetSpec['workload']>;

export interface Workload {
  start(): void;
  /** stops sending and waits for requests in flight to be counted */
  stop(): Promise<void>;
  counters(): WorkloadCounters;
  /** a measurement window counting the requests sent from now on (DESIGN §5: every request sent is counted) */
  openWindow(): WorkloadWindow;
  /** the last few failure reasons, newest last */
  recentFailures(): string[];
}

export interface WorkloadHooks {
  /** every answer the workload got, before it is checked: where a marker reaching the user is seen (§13.3) */
  onAnswer?(answer: HttpAnswer): void;
}

export function createWorkload(spec: WorkloadSpec, clock: Clock = systemClock, hooks: WorkloadHooks = {}): Workload {
  const counters: WorkloadCounters = { requests: 0, succeeded: 0, failed: 0 };
  const failures: string[] = [];
  const inFlight = new Set<Promise<void>>();
  const tally = createWorkloadTally();
  const periodMs = 1000 / spec.rate;
  let timer: TimerHandle | undefined;
  let running = false;
  let next = 0;

  const fire = () => {
    const ended = tally.started();
    const p = sendRequest(spec.request)
      .then((answer) => {
        hooks.onAnswer?.(answer);
        return checkAnswer(answer, spec.expect);
      })
      .catch((err: Error) => err.message)
      .then((problem) => {
        counters.requests++;
        ended(problem === undefined);
        if (problem === undefined) counters.succeeded++;
        else {
          counters.failed++;
          failures.push(problem);
          if (failures.length > 20) failures.shift();
        }
      });
    inFlight.add(p);
    void p.finally(() => inFlight.delete(p));
  };

  // scheduled against absolute times so a slow tick does not lower the rate
  const tick = () => {
    if (!running) return;
    fire();
    next += periodMs;
    const now = clock.now();
    if (next < now - periodMs * 10) next = now; // after a long stall, do not burst to catch up
    timer = clock.setTimer(Math.max(0, next - now), tick);
  };

  return {
    start() {
      if (running) return;
      running = true;
      next = clock.now();
      tick();
    },
    async stop() {
      running = false;
      timer?.cancel();
      await Promise.all([...inFlight]);
    },
    counters: () => ({ ...counters, in_flight: inFlight.size }),
    openWindow: () => tally.open(),
    recentFailures: () => [...failures],
  };
}
