/** A scenario as the runner sees it: validated, labels filled in, durations in ms. */
import type { ActionType } from '../action.js';
import type { MaxAffected } from '../safety/blast-radius.js';
import type { StopWhen } from '../safety/stop-when.js';

export interface ScenarioActionSpec {
  type: ActionType;
  /** agent id, node id, or `random` (a seeded pick among the running workers) */
  target_id?: string;
  source_id?: string;
  metadata?: Record<string, unknown>;
}

export interface ScenarioStep {
  label: string;
  /** true when the label was generated (the file did not name one) */
  generated_label: boolean;
  delay_ms: number;
  action: ScenarioActionSpec;
  expect_success?: boolean;
  expect_failure?: boolean;
  depends_on: string[];
}

export interface ScenarioConfig {
  stop_on_error: boolean;
  parallel_actions: boolean;
  max_concurrent: number;
  timeout_ms?: number;
  warmup_ms: number;
  cooldown_ms: number;
  /** how long a disruptive fault has to recover before it counts as not recovered */
  recovery_deadline_ms?: number;
  seed?: number;
  /** a target file, relative to the scenario file; `--target` wins */
  target?: string;
  /** stop conditions (DESIGN §16) */
  stop_when?: StopWhen;
  /** at most this many agents faulted at once (DESIGN §16) */
  max_affected?: MaxAffected;
}

export interface Scenario {
  name: string;
  description?: string;
  tags: string[];
  config: ScenarioConfig;
  expect: { min_score?: number };
  actions: ScenarioStep[];
  /** file it was loaded from, when any */
  file?: string;
}

export interface ScenarioProblem {
  path: string;
  message: string;
  line?: number;
  column?: number;
}

export interface ScenarioValidation {
  valid: boolean;
  errors: ScenarioProblem[];
  /** present when valid */
  scenario?: Scenario;
}

export const DEFAULT_MAX_CONCURRENT = 3;
/** the measured window when a scenario states none (DESIGN §5) */
export const DEFAULT_WARMUP_MS = 1000;
export const DEFAULT_COOLDOWN_MS = 3000;
