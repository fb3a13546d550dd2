/**
 * The metrics of a run that is not `arena serve` (`scenario run --serve`,
 * `survival --serve`): fed from the run's own events, the same names as the
 * server's (DESIGN §17). Faults and recoveries are counted as they happen; the
 * active faults and the live score come with each snapshot, the final score
 * and the verdict with the run's end. The workload counters and the LLM tokens
 * are not in a run's events: ./run-targets.ts reads them from the run's target.
 */
import type { LiveScore, RunEvent } from '../../arena/report.js';
import type { ArenaMetrics } from '../../protocol/metrics.js';

export function countRunEvents(m: ArenaMetrics): (event: RunEvent) => void {
  let kind: 'scenario' | 'survival' | undefined;
  let live: LiveScore | undefined;
  const setScore = (score: number | null) =>
    m.score({
      score,
      availability: live?.availability ?? null,
      recovery: live?.recovery ?? null,
      consistency: live?.consistency ?? null,
    });
  return (event) => {
    switch (event.type) {
      case 'run.started':
        kind = event.kind;
        return;
      case 'action': {
        const { action, success } = event.result;
        m.fault(action.type, action.target_id, success ? 'applied' : 'refused');
        return;
      }
      case 'recovery':
        if (event.recovery.recovered && event.recovery.recovery_ms !== undefined)
          m.recovery(event.recovery.type, event.recovery.recovery_ms / 1000);
        return;
      case 'snapshot':
        live = event.live;
        m.activeFaults(event.faults);
        setScore(event.live.score);
        return;
      case 'run.finished':
        // the measured score replaces the live one
        if (event.score !== undefined) setScore(event.score.score);
        if (kind) m.run(kind, event.status);
        return;
      case 'phase':
      case 'fault.reverted':
        return;
      default: {
        const never: never = event;
        return never;
      }
    }
  };
}
