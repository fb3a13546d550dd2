/** What a regression test is asked to do, and what it depends on. */
import type { ScoreReport } from '../report.js';
import type { Scenario } from '../scenario/types.js';

/** The workload each run faces: a scenario, or a survival run of random faults. */
export type RegressionWorkload = { scenario: Scenario; file?: string } | { survival: SurvivalWorkload };

export interface SurvivalWorkload {
  duration_ms: number;
  interval_ms: number;
  actions?: string[];
  /** a fault not recovered within this counts as not recovered (default: the measurement's, 10 s) */
  recovery_deadline_ms?: number;
  /** recovery watched after the last fault (default: survival's) */
  cooldown_ms?: number;
}

export type Arm = 'baseline' | 'candidate';

export interface ArmRunRequest {
  arm: Arm;
  /** index of the run within its arm; run i of both arms shares a seed */
  run: number;
  seed: number;
  strategy: unknown;
  workload: RegressionWorkload;
  signal?: AbortSignal;
}

/**
 * What the tester needs from the arena: one measured run of one strategy, on a
 * fresh target of its own. `createTargetArena` is the real implementation.
 */
export interface RegressionArena {
  runArm(request: ArmRunRequest): Promise<ScoreReport>;
}

export interface RegressionConfig {
  baseline: unknown;
  candidate: unknown;
  /** names shown in reports, e.g. the strategy files */
  baselineName?: string;
  candidateName?: string;
  /** runs per arm without adaptive stopping (default 10) */
  runs?: number;
  /** the significance level alpha (two-sided), default 0.05 */
  alpha?: number;
  /**
   * the confidence level, 1 − alpha (e.g. 0.95); an alternative to `alpha`.
   * Before, this field held alpha under the wrong name: a value below 0.5 is
   * now refused with a pointer to `alpha` rather than silently reinterpreted.
   */
  confidence?: number;
  adaptive?: boolean;
  /** runs per arm added between looks (default 5) */
  adaptiveBatchSize?: number;
  /** runs per arm at the first look (default 5) */
  minAdaptiveRuns?: number;
  /** the most runs per arm with adaptive stopping (default max(runs, 30)) */
  maxRuns?: number;
  /** runs executing at once, both arms together (default 4) */
  parallelism?: number;
  workload: RegressionWorkload;
  seed?: number;
  /** stop for futility below this conditional power under the current trend (default 0 = never; 0.1 is usual) */
  futilityPower?: number;
  /** alpha spending of the adaptive design: 'obrien-fleming' (default) or 'pocock' (fewer runs on a real effect, larger maxRuns for the same power) */
  spending?: 'obrien-fleming' | 'pocock';
  /** the difference (score points) the power statement is about, default 5 */
  minimumEffect?: number;
  signal?: AbortSignal;
  /** progress: each finished run, and each sequential look */
  onEvent?: (event: RegressionEvent) => void;
}

export type RegressionEvent =
  | { type: 'run'; arm: Arm; run: number; seed: number; score: number }
  | { type: 'look'; look: SequentialLookRecord };

export interface SequentialLookRecord {
  index: number;
  /** runs per arm so far */
  n: number;
  p_value: number;
  nominal_p: number;
  z_boundary: number;
  conditional_power?: number;
  decision: 'reject' | 'futility' | 'continue' | 'accept';
}

export interface RunPair {
  run: number;
  seed: number;
  baseline: number;
  candidate: number;
}
