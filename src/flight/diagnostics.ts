/**
 * What a failed arena action means, by fault kind: the category an operator
 * files it under, the likely root cause and what to change. The error text of
 * the result refines the cause (the target was missing, already in that state,
 * the target cannot take that fault, the input was wrong).
 */
import type { ActionType, Result } from '../arena/action.js';

export const FLIGHT_CATEGORIES = [
  'process',
  'leadership',
  'orchestration',
  'scheduling',
  'latency',
  'network',
  'tooling',
  'state',
  'integration',
  'llm',
  'workflow',
] as const;
export type FlightCategory = (typeof FLIGHT_CATEGORIES)[number];

export interface DiagnosticRule {
  category: FlightCategory;
  /** the fault's effect, i.e. what the system must recover from */
  root_cause: string;
  suggested_fixes: string[];
}

export const DIAGNOSTIC_TABLE: Record<ActionType, DiagnosticRule> = {
  kill_agent: {
    category: 'process',
    root_cause: "an agent's task loop was terminated; in-flight work is lost until the supervisor resurrects it",
    suggested_fixes: [
      'keep supervisor.enabled on and lower supervisor.backoff_ms so agents restart sooner',
      'raise supervisor.max_restarts (or widen supervisor.window_ms) so repeated kills do not exhaust the restart budget',
      'make step work idempotent so lost in-flight work can be retried safely',
    ],
  },
  kill_leader: {
    category: 'leadership',
    root_cause: 'the elected leader died; no leader exists until its lease expires and a new election completes',
    suggested_fixes: [
      'shorten election.lease_ms so a dead leader is detected sooner',
      'keep election.renew_interval_ms well below election.lease_ms to avoid spurious failovers',
      'keep the supervisor on so the killed worker rejoins as a follower',
    ],
  },
  kill_orchestrator: {
    category: 'orchestration',
    root_cause:
      'the active orchestrator died; work is not routed until the standby notices missed heartbeats and takes over',
    suggested_fixes: [
      'shorten failover.heartbeat_timeout_ms so the standby takes over sooner',
      'send heartbeats more often (failover.heartbeat_interval_ms) while keeping them below the timeout',
      'keep a standby orchestrator running at all times',
    ],
  },
  pause_agent: {
    category: 'scheduling',
    root_cause: 'an agent stopped taking work; its queue stalls while the orchestrator keeps routing to it',
    suggested_fixes: [
      'shorten failover.heartbeat_timeout_ms so silent workers are routed around sooner',
      'bound run time with workload.run_timeout_ms so stalled work fails fast and is retried elsewhere',
    ],
  },
  resume_agent: {
    category: 'scheduling',
    root_cause: 'an agent could not be resumed; it stays out of rotation',
    suggested_fixes: [
      'check that the agent was paused before resuming it',
      'let the supervisor restart agents that cannot resume',
    ],
  },
  slow_agent: {
    category: 'latency',
    root_cause: 'every task on the agent is delayed; runs routed to it approach or exceed their timeout',
    suggested_fixes: [
      'bound runs with workload.run_timeout_ms and retry on another agent (dag.step_retries)',
      'raise dag.step_retries so slow steps are retried rather than failed',
    ],
  },
  network_partition: {
    category: 'network',
    root_cause: 'messages to and from the agent are dropped; it misses heartbeats and its work times out',
    suggested_fixes: [
      'shorten failover.heartbeat_timeout_ms so partitioned agents are routed around',
      'shorten election.lease_ms so a partitioned leader is replaced',
      'raise dag.step_retries so lost messages are resent',
    ],
  },
  tool_fault: {
    category: 'tooling',
    root_cause:
      "the agent's tool results came back wrong (cut, empty, corrupted, carrying an instruction) or its tool list drifted",
    suggested_fixes: [
      'validate tool results against the tool output schema before acting on them',
      'raise tools.retries so a call whose answer fails validation is attempted again',
      'never act on instructions found inside tool results',
    ],
  },
  tool_timeout: {
    category: 'tooling',
    root_cause: "the agent's tool calls hang until their timeout; steps that call tools stall",
    suggested_fixes: [
      'lower tools.timeout_ms so hung calls fail fast',
      'raise tools.retries so a timed-out call is attempted again',
    ],
  },
  memory_corrupt: {
    category: 'state',
    root_cause: "the agent's memory entries were altered; reads return wrong values until integrity is restored",
    suggested_fixes: [
      'keep integrity.enabled on and lower integrity.check_interval_ms so corruption is found sooner',
      'lower checkpoints.interval_ms so a restore loses less',
    ],
  },
  mcp_disconnect: {
    category: 'integration',
    root_cause: "the agent's MCP session was closed; MCP tools are unavailable until it reconnects",
    suggested_fixes: [
      'keep mcp.enabled on and lower mcp.backoff_ms so reconnection starts sooner',
      'cap mcp.max_backoff_ms so reconnects keep trying often',
    ],
  },
  llm_failure: {
    category: 'llm',
    root_cause: "the agent's primary LLM provider fails its calls",
    suggested_fixes: [
      'raise llm.retries with a short llm.backoff_ms',
      'turn llm.fallback on so calls go to the fallback provider',
    ],
  },
  remove_node: {
    category: 'workflow',
    root_cause: 'a step disappeared from the workflow DAG; runs that need it cannot complete',
    suggested_fixes: [
      'keep dag.enabled on and lower dag.restore_delay_ms so the DAG is restored sooner',
      "use dag.recovery 'replace_node'",
    ],
  },
  remove_edge: {
    category: 'workflow',
    root_cause: 'a dependency disappeared from the workflow DAG; steps may run before their inputs exist',
    suggested_fixes: [
      'keep dag.enabled on and lower dag.restore_delay_ms',
      'raise dag.step_retries so steps missing inputs are retried',
    ],
  },
};

export interface Diagnostic {
  category: FlightCategory;
  root_cause: string;
  suggested_fixes: string[];
  /** why the injection failed, as classified from the error text */
  failure_reason: FailureReason;
}

export type FailureReason = 'target_missing' | 'target_state' | 'unsupported' | 'invalid_input' | 'timeout' | 'unknown';

const REASONS: Array<{ reason: FailureReason; pattern: RegExp; cause: (r: Result) => string; fix: string }> = [
  {
    reason: 'target_missing',
    pattern: /not found|unknown (agent|node|edge)|no such|does not exist|no running|there is no/i,
    cause: (r) => `the target ${describeTarget(r)} does not exist or is not running right now`,
    fix: 'check the target names with `arena describe`; scenarios must name agents, nodes and edges that exist',
  },
  {
    reason: 'target_state',
    pattern: /already|is (stopped|paused|failed|restarting|down)|not paused|not connected/i,
    cause: (r) =>
      `the target ${describeTarget(r)} was not in a state that accepts this fault (an earlier fault has not recovered yet)`,
    fix: 'space faults further apart, or make recovery faster so the target is back before the next fault',
  },
  {
    reason: 'unsupported',
    pattern: /cannot be applied|no (runtime|workflow dag|dag) provider|not supported|unsupported/i,
    cause: () => 'the target does not support this fault kind',
    fix: 'remove this fault kind from the scenario, or run against a target that supports it',
  },
  {
    reason: 'invalid_input',
    pattern: /must be|invalid|needs|missing/i,
    cause: () => 'the action was malformed',
    fix: 'validate the scenario with `arena scenario validate`',
  },
  {
    reason: 'timeout',
    pattern: /timed? ?out|deadline/i,
    cause: () => 'applying the fault timed out',
    fix: 'check that the target is responsive; raise the action timeout',
  },
];

export function describeTarget(result: Result): string {
  const a = result.action;
  if (a.type === 'remove_edge') return `${a.source_id ?? '?'}→${a.target_id}`;
  return a.target_id || a.type.replace(/^kill_/, '');
}

/** the diagnostic for a failed result: the fault kind's row, refined by the error */
export function diagnose(result: Result): Diagnostic {
  const rule = DIAGNOSTIC_TABLE[result.action.type] ?? {
    category: 'process' as const,
    root_cause: `unknown fault kind ${result.action.type}`,
    suggested_fixes: [],
  };
  const error = result.error ?? '';
  const match = REASONS.find((r) => r.pattern.test(error));
  if (!match) {
    return {
      category: rule.category,
      root_cause: error ? `${rule.root_cause} (injection failed: ${error})` : rule.root_cause,
      suggested_fixes: [...rule.suggested_fixes],
      failure_reason: 'unknown',
    };
  }
  return {
    category: rule.category,
    root_cause: `${match.cause(result)}; had it applied: ${rule.root_cause}`,
    suggested_fixes: [match.fix, ...rule.suggested_fixes],
    failure_reason: match.reason,
  };
}
