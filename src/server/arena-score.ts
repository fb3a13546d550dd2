/**
 * The score behind GET /arena/score: a measurement session that has watched
 * every action executed since the server started (recovery polled on the
 * target, availability from its workload counters). Consistency needs the
 * target's invariant checks, which run on request (`?checks=true`).
 * Every score read (the console's poll, a /metrics scrape) is also kept as a
 * point of a bounded history (GET /arena/score/history), so a console opened
 * later draws what was measured before it, not an empty chart.
 */
import { errorMessage } from '../shared/errors.js';
import type { ArenaService } from '../arena/service.js';
import { startMeasurement, type MeasurementSession } from '../arena/measure/index.js';
import { gradeFor, round1, SCORE_WEIGHTS } from '../arena/score.js';

export interface ScoreTracker {
  snapshot(runChecks: boolean): Promise<Record<string, unknown>>;
  /** the score as read so far, oldest first (at most SCORE_HISTORY_POINTS, one per second at most) */
  history(): ScoreHistory;
  close(): Promise<void>;
}

/** one read of the score; consistency is the last checked value carried forward (null before any check) */
interface ScorePoint {
  /** epoch ms */
  at_ms: number;
  score: number | null;
  availability: number | null;
  recovery: number | null;
  consistency: number | null;
}

interface ScoreHistory {
  since: string;
  points: ScorePoint[];
}

/** 15 minutes at the console's one read a second */
const SCORE_HISTORY_POINTS = 900;
/** reads closer together than this replace the last point rather than add one */
const POINT_SPACING_MS = 1000;

export function startScoreTracker(service: ArenaService): ScoreTracker | undefined {
  const observer = service.observer;
  if (!observer) return undefined;
  const controller = new AbortController();
  const ready: Promise<MeasurementSession> = startMeasurement({ observer, clock: service.clock });
  // subscribe now, so no action between here and the first workload sample is missed
  const events = service.subscribe({ signal: controller.signal });
  const since = service.clock.wallNow().toISOString();
  const points: ScorePoint[] = [];
  let lastConsistency: number | null = null;
  const remember = (point: Omit<ScorePoint, 'at_ms'>) => {
    const at = service.clock.wallNow().getTime();
    if (point.consistency !== null) lastConsistency = point.consistency;
    const kept: ScorePoint = { at_ms: at, ...point, consistency: point.consistency ?? lastConsistency };
    const last = points.at(-1);
    if (last && at - last.at_ms < POINT_SPACING_MS) points[points.length - 1] = { ...kept, at_ms: last.at_ms };
    else points.push(kept);
    if (points.length > SCORE_HISTORY_POINTS) points.splice(0, points.length - SCORE_HISTORY_POINTS);
  };
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
      remember({ score, availability: live.availability, recovery: live.recovery, consistency });
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
    history: () => ({ since, points: points.slice() }),
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
