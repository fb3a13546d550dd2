/**
 * The shapes of GET /arena/trials (src/server/trials-route.ts), read from the
 * event store by trials-progress.ts and shown by the web console's Trials
 * view, which imports these types (so nothing here may import a runtime module).
 */
import type { TrialsPlan, TrialsReport } from '../arena/trials/report.js';

/** one arm of one task so far */
export interface TrialsArmProgress {
  arm: string;
  intensity?: number;
  /** trials of this task and arm done, out of `n` planned */
  done: number;
  n: number;
  successes: number;
  /** pass^k over the trials done so far, C(c,k)/C(done,k); null while fewer than k are done */
  pass_k: Record<string, number | null>;
}

export interface TrialsTaskProgress {
  id: string;
  arms: TrialsArmProgress[];
}

/** one series of the reliability surface: pass^k against k at one intensity (mean over tasks) */
export interface TrialsSurfaceSeries {
  intensity: number;
  done: number;
  total: number;
  /** null at a k no task has k trials of yet */
  pass_k: Record<string, number | null>;
}

export interface TrialsJob {
  id: string;
  /**
   * running: trials still going; finished: the report is in (whatever its own status); failed: trials
   * stopped without a report; abandoned: no report and silent for 30 s (killed, host lost)
   */
  status: 'running' | 'finished' | 'failed' | 'abandoned';
  plan?: TrialsPlan;
  done: number;
  total: number;
  tasks: TrialsTaskProgress[];
  surface: TrialsSurfaceSeries[];
  /** the latest trial */
  last?: { id: string; task: string; arm: string; passed: boolean; detail?: string };
  /** the report `arena trials --json` printed, once finished: the view's final figures are read from it */
  report?: TrialsReport;
  error?: string;
  started_at: string;
  updated_at: string;
}

export interface TrialsReply {
  store: string;
  jobs: TrialsJob[];
}
