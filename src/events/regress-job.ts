/**
 * The shapes of GET /arena/regress (src/server/regress-route.ts), read from
 * the database by regress-progress.ts and shown by the web console's Regress
 * panel, which imports these types (so nothing here may import a runtime module).
 */
import type { SequentialLookRecord } from '../arena/regression/types.js';

export interface RegressPlan {
  baseline: string;
  candidate: string;
  seed: number;
  adaptive: boolean;
  /** runs per arm: the fixed number, or the adaptive maximum */
  max_runs: number;
  min_runs?: number;
  alpha: number;
}

/** the parts of a regress result the console shows */
export interface RegressOutcome {
  decision: string;
  difference: number;
  p_value: number;
  ci: [number, number];
  runs_used: number;
  undecided_reason?: string;
  stopped?: string;
  interrupted?: boolean;
}

export interface ArmProgress {
  queued: number;
  running: number;
  done: number;
  failed: number;
  /** runs put on the queue so far (cancelled ones included) */
  total: number;
}

export interface RegressJob {
  batch: string;
  plan?: RegressPlan;
  /**
   * running: no verdict yet; finished: a verdict; failed: regress stopped without one;
   * abandoned: no verdict and its coordinator silent for 30 s (killed, host lost): none will come
   */
  status: 'running' | 'finished' | 'failed' | 'abandoned';
  /** the coordinator's last event or heartbeat (every 5 s while it runs) */
  coordinator_seen_at?: string;
  arms: { baseline: ArmProgress; candidate: ArmProgress };
  /** workers that took runs of this job */
  workers: string[];
  /** candidate − baseline, mean over the pairs both of whose runs regress has counted */
  estimate?: { pairs: number; difference: number; baseline_mean: number; candidate_mean: number };
  looks: SequentialLookRecord[];
  outcome?: RegressOutcome;
  error?: string;
  started_at: string;
  updated_at: string;
}

/** the route's answer: the jobs, or why this server cannot have any */
export type RegressReply =
  | { available: false; reason: string; jobs: [] }
  | { available: true; store: string; jobs: RegressJob[] };
