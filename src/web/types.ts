/** The shapes the console reads from the server (GET /arena/dashboard, /arena/score, …). */
export interface Agent {
  id: string;
  role: string;
  status: string;
  restarts: number;
}

export interface ActiveFault {
  id: string;
  kind: string;
  target: string;
  started_at_ms: number;
  ends_at_ms?: number;
}

export interface Dashboard {
  at: string;
  now_ms?: number;
  target: string;
  faults?: string[];
  dag?: { nodes: string[]; edges: Array<{ from: string; to: string }> };
  agents: Agent[];
  active_faults: ActiveFault[];
  totals: { total: number; succeeded: number; failed: number };
  workload: { requests: number; succeeded: number; failed: number };
  survival: { running: boolean; progress?: number };
  scenario_running: boolean;
  /** the runs started on the server, oldest first (absent on older servers) */
  runs?: RunSummary[];
}

export interface RunSummary {
  id: number;
  kind: string;
  name: string;
  seed: number;
  started_at: string;
  finished_at?: string;
  status?: string;
  score?: number | null;
  /** why it ended early (a stop condition, an emergency stop) */
  stopped_by?: { condition?: string; reason?: string };
  error?: string;
  action_ids: string[];
}

/** one disruptive fault the server's score watched: recovered (and how fast), or not yet */
export interface Recovery {
  action_id: string;
  type: string;
  target: string;
  recovered: boolean;
  recovery_ms?: number;
}

export interface ScoreSnapshot {
  recoveries?: Recovery[];
  pending_recoveries?: number;
  score: number | null;
  grade: string | null;
  availability: number | null;
  recovery: number | null;
  consistency: number | null;
}

/** GET /arena/score/history: the score as the server read it so far, oldest first */
export interface ScoreHistory {
  since: string;
  points: Array<{
    at_ms: number;
    score: number | null;
    availability: number | null;
    recovery: number | null;
    consistency: number | null;
  }>;
}

export interface TimelineItem {
  id: number;
  type: string;
  at: string;
  data: unknown;
}

export interface Diagnostic {
  id: string;
  at: string;
  type: string;
  target_id?: string;
  error?: string;
  category?: string;
  root_cause?: string;
  suggested_fixes?: string[];
  failure_reason?: string;
}

/** GET /arena/regress: the `regress --workers` jobs on the server's PostgreSQL database */
export type { ArmProgress as RegressArm, RegressJob, RegressReply } from '../events/regress-job.js';

/** GET /arena/trials: the `arena trials --store …` jobs recorded in the server's event store */
export type { TaskReport } from '../arena/trials/report.js';
export type {
  TrialsArmProgress,
  TrialsJob,
  TrialsSurfaceSeries,
  TrialsTaskProgress,
} from '../events/trials-job.js';

/** GET /arena/shrinks: the `arena shrink --store …` jobs recorded in the server's event store */
export type { ShrinkJob } from '../events/shrink-job.js';
