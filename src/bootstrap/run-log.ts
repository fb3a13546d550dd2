/**
 * The runs a server has gone through (scenario and survival runs started
 * through its API), newest last and bounded: which actions each ran and how
 * it ended. The console groups its timeline by them (GET /arena/dashboard
 * `runs`). A RunEventListener, like every other reader of a run.
 */
import type { RunEvent, RunEventListener, RunStatus } from '../arena/report.js';
import type { StoppedBy } from '../arena/safety/types.js';

export interface RunSummary {
  /** numbered per server, from 1 */
  id: number;
  kind: 'scenario' | 'survival';
  name: string;
  seed: number;
  started_at: string;
  finished_at?: string;
  status?: RunStatus;
  score?: number | null;
  /** a stop condition ended it (DESIGN §16) */
  stopped_by?: StoppedBy;
  /** why it ended early or in error (an emergency stop says who stopped it) */
  error?: string;
  /** ids of the actions the run executed, in order */
  action_ids: string[];
}

export interface RunLog {
  listener: RunEventListener;
  list(): RunSummary[];
}

/** a run's action ids beyond this are not kept (a long survival run): its first ones still group */
const MAX_ACTIONS_PER_RUN = 2000;

export function createRunLog(options: { limit?: number; now?: () => Date } = {}): RunLog {
  const limit = options.limit ?? 20;
  const now = options.now ?? (() => new Date());
  const runs: RunSummary[] = [];
  let next = 1;
  return {
    listener(event: RunEvent) {
      const current = runs.at(-1);
      const isOpen = current !== undefined && current.finished_at === undefined;
      if (event.type === 'run.started') {
        runs.push({
          id: next++,
          kind: event.kind,
          name: event.name,
          seed: event.seed,
          started_at: now().toISOString(),
          action_ids: [],
        });
        if (runs.length > limit) runs.splice(0, runs.length - limit);
      } else if (event.type === 'action' && isOpen) {
        if (current.action_ids.length < MAX_ACTIONS_PER_RUN) current.action_ids.push(event.result.action.id);
      } else if (event.type === 'run.finished' && isOpen) {
        current.finished_at = now().toISOString();
        current.status = event.status;
        if (event.score !== undefined) current.score = event.score.score;
        if (event.stopped_by) current.stopped_by = event.stopped_by;
        if (event.error !== undefined) current.error = event.error;
      }
    },
    list: () => runs.map((r) => ({ ...r, action_ids: [...r.action_ids] })),
  };
}
