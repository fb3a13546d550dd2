/** The fault kinds and their established wire names (DESIGN §3): the seed's 13, then tool_fault (§13.2). */
export const ACTION_TYPES = [
  'kill_agent',
  'kill_leader',
  'kill_orchestrator',
  'pause_agent',
  'resume_agent',
  'slow_agent',
  'network_partition',
  'tool_timeout',
  'memory_corrupt',
  'mcp_disconnect',
  'llm_failure',
  'remove_node',
  'remove_edge',
  'tool_fault',
] as const;

export type ActionType = (typeof ACTION_TYPES)[number];

// one vocabulary for the LLM proxy, scenarios, HTTP and the schemas (DESIGN §10.2, §13.1)
export { LLM_ERROR_TYPES, type LlmErrorType as LLMErrorType } from '../protocol/llm-faults.js';

/**
 * Whether the arena finds the fault's target itself rather than the user naming it. A Record, like
 * every per-fault table: a new fault type does not compile until each table says what it does.
 */
const FINDS_OWN_TARGET: Record<ActionType, boolean> = {
  kill_agent: false,
  kill_leader: true,
  kill_orchestrator: true,
  pause_agent: false,
  resume_agent: false,
  slow_agent: false,
  network_partition: false,
  tool_timeout: false,
  memory_corrupt: false,
  mcp_disconnect: false,
  llm_failure: false,
  remove_node: false,
  remove_edge: false,
  tool_fault: false,
};

/** Faults whose target is found by the arena rather than named by the user. */
export const SELF_TARGETING: ReadonlySet<ActionType> = new Set(ACTION_TYPES.filter((t) => FINDS_OWN_TARGET[t]));

export function isActionType(value: unknown): value is ActionType {
  return typeof value === 'string' && (ACTION_TYPES as readonly string[]).includes(value);
}

/** Action JSON: `{id, type, target_id, source_id?, metadata?, created_at}`. */
export interface Action {
  id: string;
  type: ActionType;
  /** agent id, DAG node id, or for `remove_edge` the edge's target node */
  target_id: string;
  /** for `remove_edge`: the edge's source node */
  source_id?: string;
  /** parameters: `duration`, `delay`, `error_type`, … */
  metadata?: Record<string, unknown>;
  /** ISO timestamp */
  created_at: string;
}

/** Result JSON: `{success, action, error?, duration_ms}` plus what the fault reports (e.g. `killed_leader_id`). */
export interface Result {
  success: boolean;
  action: Action;
  error?: string;
  duration_ms: number;
  metadata?: Record<string, unknown>;
  /** not attempted: a safety limit (max_affected) refused it; `error` says which */
  skipped?: true;
}
