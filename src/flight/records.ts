/** The shapes the flight recorder stores and answers queries with. */
import type { Action, ActionType } from '../arena/action.js';
import type { Diagnostic, FlightCategory } from './diagnostics.js';

export const FLIGHT_TIMELINE_STREAM = 'flight.timeline';
export const FLIGHT_DIAGNOSTICS_STREAM = 'flight.diagnostics';
export const EVIDENCE_STREAM = 'evidence';

/** one arena action, as it happened */
export interface TimelineRecord {
  /** the action id */
  id: string;
  /** the recorder session (one per run or server) that saw it */
  session: string;
  /** ISO time the result was recorded */
  at: string;
  type: ActionType;
  target_id: string;
  source_id?: string;
  /** the agent the fault hit: target_id for agent faults, the killed leader / orchestrator for self-targeting ones */
  agent_id?: string;
  category: FlightCategory;
  success: boolean;
  /** the scenario step was marked `expect_failure`: a failure here is what it asked for, not a problem */
  expected_failure?: boolean;
  error?: string;
  duration_ms: number;
  metadata?: Record<string, unknown>;
  action: Action;
}

/** why one action failed and what to change */
export interface DiagnosticRecord extends Diagnostic {
  id: string;
  action_id: string;
  session: string;
  at: string;
  type: ActionType;
  target_id: string;
  agent_id?: string;
  error?: string;
}

/** evidence of a failure, for audits (source `chaos`, kind `failure`) */
export interface FailureEvidence {
  id: string;
  source: 'chaos';
  kind: 'failure';
  action_id: string;
  session: string;
  at: string;
  agent_id?: string;
  summary: string;
  data: { action: Action; error?: string; category: FlightCategory; root_cause: string };
}

export interface FlightQuery {
  /** ISO time, a Date, or a duration back from now ("10m", 600000) */
  since?: string | number | Date;
  until?: string | number | Date;
  agent?: string;
  category?: string;
  type?: string;
  success?: boolean;
  session?: string;
  /** the most recent N (after filtering) */
  limit?: number;
}
