/**
 * The trials report (DESIGN §14; the `--json` names are a contract, additive fields allowed): per task
 * the clean and faulted arms' pass^k with intervals, behaviour and cost; overall pass^k (the mean of the
 * tasks'); with `--intensity`, the reliability surface. A figure the target cannot measure (no call
 * ledger) is null, never 0.
 */
import type { RunStatus } from '../report.js';
import type { StoppedBy } from '../safety/types.js';
import type { MarkerCounts } from './markers.js';
import { passKIntervalTable, passKTable } from './passk.js';

export interface ArmStats {
  n: number;
  successes: number;
  pass_k: Record<string, number>;
  pass_k_interval: Record<string, [number, number]>;
}

export interface PairOf<T> {
  clean: T;
  faulted: T;
}

export interface TaskBehaviour {
  llm_calls: PairOf<number | null>;
  tool_calls: PairOf<number | null>;
  runaway: boolean | null;
  /** faulted trials over 3× the clean median and over 10 calls */
  runaway_trials: number | null;
  duplicate_side_effects: number | null;
  false_success: number | null;
  unattributed_calls: number | null;
  /**
   * per arm (clean, faulted, intensity=…): the texts that carried a quiet fault's marker (DESIGN §13.3)
   * while the task's trials were in flight, and in how many trials any did; null without a marker book
   */
  markers: Record<string, TrialMarkers> | null;
}

export interface TrialMarkers extends MarkerCounts {
  /** trials of the arm during which some marker travelled */
  trials: number;
}

export interface TaskReport {
  id: string;
  clean: ArmStats;
  /** null when no scenario was given (no faults asked for) */
  faulted: ArmStats | null;
  /** faulted − clean pass^k, per k */
  delta: Record<string, number> | null;
  behaviour: TaskBehaviour;
  cost: { tokens: PairOf<number | null>; usd: PairOf<number | null> };
}

export interface SurfacePoint {
  intensity: number;
  /** mean over tasks, per k */
  pass_k: Record<string, number>;
  tasks: Array<{ id: string } & ArmStats>;
}

export interface TrialsBody {
  n: number;
  k: number[];
  seed: number;
  scenario: string | null;
  tasks: TaskReport[];
  overall: {
    clean: Record<string, number>;
    faulted: Record<string, number> | null;
    delta: Record<string, number> | null;
  };
  surface?: SurfacePoint[];
  /** calls no trial could be given (DESIGN §14 attribution); null when the target records no calls */
  unattributed_calls: number | null;
  /** calls the target's ledger dropped before they were read: behaviour is then a lower bound */
  dropped_calls: number | null;
  /** marker sightings while no trial was in flight (never given to a trial); null without a marker book */
  unattributed_markers: MarkerCounts | null;
  /** faults applied and refused over all faulted blocks */
  faults: { applied: number; failed: number; first_error?: string };
  duration_ms: number;
}

export interface TrialsReport {
  schema_version: 1;
  status: RunStatus;
  error?: string;
  trials: TrialsBody;
  gates?: GateResult[];
  /** a `--stop-when` condition tripped: the trials ended early, faults reverted, status failed */
  stopped_by?: StoppedBy;
}

/** what a run of trials will do, as planned from the seed (told before the first trial) */
export interface TrialsPlan {
  n: number;
  ks: number[];
  seed: number;
  scenario: string | null;
  tasks: string[];
  arms: Array<{ name: string; intensity?: number }>;
  /** trials in all: tasks × arms × n */
  total: number;
}

export interface GateResult {
  name: string;
  task: string;
  passed: boolean;
  detail: string;
}

export function armStats(n: number, successes: number, ks: readonly number[]): ArmStats {
  return {
    n,
    successes,
    pass_k: passKTable(n, successes, ks),
    pass_k_interval: passKIntervalTable(n, successes, ks),
  };
}

/** per k, the mean of the tables that have it */
export function meanTable(tables: ReadonlyArray<Record<string, number>>): Record<string, number> {
  const out: Record<string, number> = {};
  if (tables.length === 0) return out;
  for (const k of Object.keys(tables[0]!)) out[k] = tables.reduce((s, t) => s + (t[k] ?? 0), 0) / tables.length;
  return out;
}

export function deltaTable(faulted: Record<string, number>, clean: Record<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const k of Object.keys(faulted)) if (clean[k] !== undefined) out[k] = faulted[k]! - clean[k]!;
  return out;
}
