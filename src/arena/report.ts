/**
 * The shapes every consumer reads: the live view, the plain line reporter,
 * `--json`, `--report`, JUnit, SSE and `arena regress`. The engine emits
 * `RunEvent`s and returns reports; it never prints.
 */
import type { MarkerTravel } from '../protocol/markers.js';
import type { Action, Result } from './action.js';
import type { ActiveFault, AgentInfo, ProxyReport } from './providers.js';
import type { StopCheckError, StoppedBy } from './safety/types.js';

export type Grade = 'A+' | 'A' | 'B' | 'C' | 'D' | 'F';

export interface FaultRecovery {
  action_id: string;
  label?: string;
  type: string;
  target: string;
  recovered: boolean;
  /** injection → healthy again (polled); undefined when not recovered before the deadline */
  recovery_ms?: number;
  /** the run was stopped (Ctrl-C, timeout, error) before it recovered or reached its deadline: not counted */
  interrupted?: true;
}

/** How the workload requests still in flight when the window closed ended (DESIGN §5: every request sent is counted). */
export interface InFlightAtEnd {
  /** sent in the window and not yet ended when it closed */
  count: number;
  succeeded: number;
  failed: number;
  /** still not ended when the arena stopped waiting (interrupted, timed out): counted as failed */
  unfinished: number;
}

export interface ScoreMeasurements {
  requests: {
    total: number;
    succeeded: number;
    failed: number;
    /** absent when the target can only report requests once they ended (the remote protocol's counters) */
    in_flight_at_end?: InFlightAtEnd;
  };
  recovery: {
    disruptive_faults: number;
    recovered: number;
    /** 0–100 from MTTR: 100 at ≤ 1 s, 0 at ≥ 10 s */
    speed: number;
    mttr_mean_ms: number | null;
    mttr_p50_ms: number | null;
    mttr_p95_ms: number | null;
    /** every fault watched, interrupted ones too */
    faults: FaultRecovery[];
    /** faults whose recovery the stopped run cut short: in `faults`, not in `disruptive_faults` (absent when 0) */
    interrupted?: number;
  };
  consistency: {
    total: number;
    passed: number;
    /** `gate: false`: the invariant counts in the score only; any other failed check fails the run */
    failed_checks: Array<{ name: string; detail?: string; gate?: false }>;
  };
}

/** The measured resilience score (DESIGN §5). */
export interface ScoreReport {
  /** null when nothing was measured (no workload request in the window): no score, never a 0 that grades */
  score: number | null;
  grade: Grade | null;
  availability: number | null;
  /** why availability (and so the score) is null */
  availability_why?: string;
  recovery: number;
  consistency: number;
  /**
   * 95% intervals (DESIGN §5): availability by Wilson from the request
   * counts, the score from that and the per-fault recovery times. Bounds are
   * rounded outwards to 0.1. Absent only in reports from older versions.
   */
  interval?: {
    confidence: number;
    availability: { low: number; high: number };
    score: { low: number; high: number };
    /** recovery times behind the recovery-speed bound; with fewer than 2 the speed counts as measured */
    recovery_times: number;
  };
  measurements: ScoreMeasurements;
  /** injection statistics: reported, never counted as availability */
  injections: { total: number; succeeded: number; failed: number };
}

export type Expectation = 'success' | 'failure' | 'none';

export interface ActionOutcome {
  label: string;
  result: Result;
  expectation: Expectation;
  /** true/false when an expectation was checked, null when the action had none */
  met: boolean | null;
  /** ms since the run started: when the action was planned to run and when it ran */
  planned_at_ms: number;
  at_ms: number;
}

/**
 * `inconclusive`: the run ended but measured nothing to judge (no workload request, no fault applied); exit 1.
 * `stopped`: an emergency stop (`arena stop`, `POST /arena/stop`) ended it; like `interrupted`, exit 130.
 */
export type RunStatus = 'passed' | 'failed' | 'inconclusive' | 'interrupted' | 'stopped' | 'error';

/** the run was cut short from outside (Ctrl-C, SIGTERM, an emergency stop): a partial report, exit 130 */
export function isCutShort(status: RunStatus): boolean {
  return status === 'interrupted' || status === 'stopped';
}

export interface GateOutcome {
  min_score: number;
  score: number;
  passed: boolean;
  /** set when the gate compared the lower bound of the score's 95% interval (`--gate lower`) … */
  on?: 'lower';
  /** … and this is the value it compared */
  value?: number;
}

export interface ReplayOf {
  kind: 'scenario' | 'survival';
  name: string;
  seed: number;
  started_at?: string;
}

export interface ScenarioReport {
  name: string;
  description?: string;
  file?: string;
  seed: number;
  status: RunStatus;
  /** every expectation held */
  verified: boolean;
  /** actions whose expectation held / did not hold */
  passed: number;
  failed: number;
  results: ActionOutcome[];
  score: ScoreReport;
  started_at: string;
  duration_ms: number;
  strategy: Record<string, unknown>;
  gate?: GateOutcome;
  /** set when the run was interrupted or hit an error: what happened */
  error?: string;
  /** set when the status is `inconclusive`: what was not measured */
  inconclusive_why?: string;
  /** faults still active when the run ended, reverted by it ([] when none were) */
  reverted_faults?: ActiveFault[];
  /** the measured window as run (after any time scale): what `arena replay` runs again */
  window?: { warmup_ms: number; cooldown_ms: number; timeout_ms?: number; recovery_deadline_ms?: number };
  /** set by `arena replay`: the run this one replayed */
  replay_of?: ReplayOf;
  /** timed faults the run's timeout (or an abort) cut short, with their planned and actual duration */
  cut_faults?: Array<{ id: string; kind: string; target: string; planned_ms: number; actual_ms?: number }>;
  /** the target's agents as the run ended: status, role, and the restarts seen during the run */
  agents?: AgentInfo[];
  /** set when a stop condition (config.stop_when) ended the run early: status `failed`, exit 1 */
  stopped_by?: StoppedBy;
  /** the fault proxies the target ran, with their stats as the run ended (process targets) */
  proxies?: ProxyReport[];
  /** per quiet fault, how far the values it changed travelled (DESIGN §13.3); absent when none were marked */
  markers?: MarkerTravel[];
  /** stop conditions that could not be evaluated and were skipped (`on_error: continue`) */
  stop_check_errors?: StopCheckError[];
}

/**
 * A live, cheap summary for the view and SSE; computed from measurements so
 * far. It is provisional and differs from the final score by design:
 * consistency is only checked after the run, so the live score weighs
 * availability and recovery alone (0.40 : 0.30), and faults still recovering
 * are pending rather than counted.
 */
export interface LiveScore {
  /** null until the workload has made its first request in the window: nothing measured is not 0 % */
  availability: number | null;
  /** from the faults that have settled (recovered or past their deadline); 100 when none has */
  recovery: number;
  consistency: number | null;
  /** null while availability is */
  score: number | null;
  /** disruptive faults still recovering, not yet in `recovery` */
  pending_recoveries?: number;
  /** disruptive faults settled so far, the ones `recovery` is computed from */
  settled_recoveries?: number;
}

/** "98.5", "pending", "85.0 (+1 pending)": the live recovery as views show it */
export function liveRecoveryText(live: LiveScore): string {
  const pending = live.pending_recoveries ?? 0;
  if (pending > 0 && (live.settled_recoveries ?? 0) === 0) return `pending (${pending} recovering)`;
  return pending > 0 ? `${live.recovery.toFixed(1)} (+${pending} pending)` : live.recovery.toFixed(1);
}

/** Why the live score is not the final one, for every view that shows it. */
export const LIVE_SCORE_NOTE = 'live score: availability and recovery so far; consistency is checked after the run';

export type RunPhase = 'warmup' | 'chaos' | 'cooldown' | 'checks' | 'done';

export type RunEvent =
  | {
      type: 'run.started';
      at_ms: number;
      kind: 'scenario' | 'survival';
      name: string;
      seed: number;
      planned_ms?: number;
    }
  | { type: 'phase'; at_ms: number; phase: RunPhase }
  | { type: 'action'; at_ms: number; label: string; result: Result; expect_failure?: true }
  | { type: 'fault.reverted'; at_ms: number; fault: ActiveFault }
  | { type: 'recovery'; at_ms: number; recovery: FaultRecovery }
  | { type: 'snapshot'; at_ms: number; agents: AgentInfo[]; faults: ActiveFault[]; live: LiveScore; progress: number }
  /** `score`: the final one (consistency checked), so a view's last frame agrees with the report */
  | {
      type: 'run.finished';
      at_ms: number;
      status: RunStatus;
      stopped_by?: StoppedBy;
      /** why it ended early or in error, as the report's `error` says it ("stopped (POST /arena/stop) after 3 action(s): …") */
      error?: string;
      score?: LiveScore;
    };

export type RunEventListener = (event: RunEvent) => void;

/** Scheduling accuracy of a survival run: actual minus planned start of each tick. */
export interface DriftStats {
  p50_ms: number;
  p99_ms: number;
  max_ms: number;
  mean_ms: number;
}

/** One survival tick: when it was planned, when it ran, what it did. */
export interface SurvivalTick {
  index: number;
  /** ms since the run started */
  planned_at: number;
  at: number;
  drift_ms: number;
  action: Action;
  result: Result;
}

/** a fault kind survival's default mix leaves out on a target, and the target's reason */
export interface LeftOutKind {
  type: string;
  reason: string;
}

export interface SurvivalReport {
  seed: number;
  status: RunStatus;
  started_at: string;
  /** configured duration; elapsed_ms is what the run really took (shorter when interrupted) */
  duration_ms: number;
  elapsed_ms: number;
  interval_ms: number;
  action_kinds: string[];
  /** the default mix's faults this target cannot apply, each with why: not drawn (absent when none) */
  action_kinds_left_out?: LeftOutKind[];
  /** ticks executed (every tick runs, late rather than skipped; lateness is in `drift`) */
  actions_run: number;
  actions_succeeded: number;
  actions_failed: number;
  score: ScoreReport;
  drift: DriftStats;
  /** the last ticks run (at most 10,000 by default); `actions_*` and `drift` count every tick */
  timeline: SurvivalTick[];
  /** ticks run before the kept timeline and left out of it (absent when none) */
  timeline_dropped?: number;
  strategy: Record<string, unknown>;
  gate?: GateOutcome;
  error?: string;
  /** set when the status is `inconclusive`: what was not measured */
  inconclusive_why?: string;
  /** faults still active when the run ended, reverted by it */
  reverted_faults?: ActiveFault[];
  /** set by `arena replay`: the run whose timeline this one replayed */
  replay_of?: ReplayOf;
  /** set when a stop condition (--stop-when) ended the run early: status `failed`, exit 1 */
  stopped_by?: StoppedBy;
  /** the fault proxies the target ran, with their stats as the run ended (process targets) */
  proxies?: ProxyReport[];
  /** stop conditions that could not be evaluated and were skipped (`on_error: continue`) */
  stop_check_errors?: StopCheckError[];
}
