/**
 * The score behind GET /arena/score: a measurement session that has watched
 * every action executed since the server started (recovery polled on the
 * target, availability from its workload counters). Consistency needs the
 * target's invariant checks, which run on request (`?checks=true`).
 */
import { errorMessage } from '../shared/errors.js';
import type { ArenaService } from '../arena/service.js';
import { startMeasurement, type MeasurementSession } from '../arena/measure/index.js';
import { gradeFor, round1, SCORE_WEIGHTS } from '../arena/score.js';

export interface ScoreTracker {
  snapshot(runChecks: boolean): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

export function startScoreTracker(service: ArenaService): ScoreTracker | undefined {
  const observer = service.observer;
  if (!observer) return undefined;
  const controller = new AbortController();
  const ready: Promise<MeasurementSession> = startMeasurement({ observer, clock: service.clock });
  // subscribe now, so no action between here and the first workload sample is missed
  const events = service.subscribe({ signal: controller.signal });
  const since = service.clock.wallNow().toISOString();
  void (async () => {
    const session = await ready;
    for await (const event of events) session.faultInjected(event.result);
  })().catch(() => undefined);
  return {
    async snapshot(runChecks) {
      const session = await ready;
      const live = await session.liveScore();
      let consistency: number | null = live.consistency;
      let checks: unknown;
      if (runChecks) {
        try {
          const results = await observer.checkInvariants();
          consistency =
            results.length === 0 ? 100 : round1((results.filter((c) => c.passed).length / results.length) * 100);
          checks = results;
        } catch (err) {
          checks = { error: errorMessage(err) };
        }
      }
      // without checks, consistency is unknown and the score weighs the other two (as the live view does)
      // no workload request yet: nothing is measured, so there is no score to give (null, not 0)
      const score =
        live.availability === null
          ? null
          : consistency === null
            ? live.score
            : round1(
                SCORE_WEIGHTS.availability * live.availability +
                  SCORE_WEIGHTS.recovery * live.recovery +
                  SCORE_WEIGHTS.consistency * consistency,
              );
      const workload = await observer.workload();
      return {
        since,
        score,
        grade: score === null ? null : gradeFor(score),
        availability: live.availability,
        recovery: live.recovery,
        consistency,
        consistency_checked: runChecks,
        recoveries: session.recoveries(),
        pending_recoveries: session.pendingCount(),
        workload,
        ...(checks === undefined ? {} : { checks }),
      };
    },
    async close() {
      controller.abort();
      try {
        await (await ready).finish({ waitForRecovery: false });
      } catch {
        // the target may already be stopped; nothing to report at shutdown
      }
    },
  };
}
