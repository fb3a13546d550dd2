/**
 * From a failed action to a PatchProposal: which part of the recovery strategy
 * should change so that fault hurts less next time, and how urgent that is.
 * Each rule computes its patch from the strategy in force (halve a timeout,
 * add a retry, switch a mechanism on), clamped to sane bounds and valid under
 * the strategy's cross-field rules.
 */
import { randomUUID } from 'node:crypto';
import type { ActionType, Result } from '../arena/action.js';
import { crossCheck, mergeStrategy, type Strategy, type StrategyPatch } from '../runtime/strategy.js';

export interface PatchProposal {
  id: string;
  /** the failed action that prompted it */
  action_id: string;
  /** the fault kind, or 'manual' for a patch an operator proposed */
  action_type: ActionType | 'manual';
  target_id: string;
  /** 1 (cosmetic) … 10 (the system is headless without it); ≥ 9 is applied at once */
  priority: number;
  /** a partial strategy, applied with runtime.updateStrategy */
  patch: StrategyPatch;
  reason: string;
  created_at: string;
}

export const EMERGENCY_PRIORITY = 9;

interface Rule {
  priority: number;
  reason: string;
  patch: (s: Strategy) => StrategyPatch;
}

const shorter = (ms: number, factor: number, min: number) => Math.max(min, Math.round(ms * factor));

export const PROPOSAL_RULES: Record<ActionType, Rule> = {
  kill_orchestrator: {
    priority: 10,
    reason: 'orchestrator loss stops all routing: detect it sooner and make sure the standby takes over',
    patch: (s) => {
      const timeout = shorter(s.failover.heartbeat_timeout_ms, 0.75, 30);
      return {
        failover: {
          enabled: true,
          heartbeat_timeout_ms: timeout,
          heartbeat_interval_ms: Math.min(s.failover.heartbeat_interval_ms, Math.max(1, Math.floor(timeout / 3))),
        },
      };
    },
  },
  kill_leader: {
    priority: 9,
    reason: 'leader loss blocks coordination until the lease expires: shorten the lease',
    patch: (s) => {
      const lease = shorter(s.election.lease_ms, 0.75, 50);
      return {
        election: {
          enabled: true,
          lease_ms: lease,
          renew_interval_ms: Math.min(s.election.renew_interval_ms, Math.max(1, Math.floor(lease / 3))),
        },
      };
    },
  },
  remove_node: {
    priority: 8,
    reason: 'a missing DAG step fails every run: restore the DAG sooner and replace missing nodes',
    patch: (s) => ({
      dag: { enabled: true, restore_delay_ms: shorter(s.dag.restore_delay_ms, 0.5, 5), recovery: 'replace_node' },
    }),
  },
  remove_edge: {
    priority: 7,
    reason: 'a missing dependency lets steps run without inputs: restore sooner and retry steps',
    patch: (s) => ({
      dag: {
        enabled: true,
        restore_delay_ms: shorter(s.dag.restore_delay_ms, 0.5, 5),
        step_retries: Math.min(5, s.dag.step_retries + 1),
      },
    }),
  },
  memory_corrupt: {
    priority: 7,
    reason: 'corrupted memory serves wrong values until checked: check integrity and checkpoint more often',
    patch: (s) => ({
      integrity: { enabled: true, check_interval_ms: shorter(s.integrity.check_interval_ms, 0.5, 10) },
      checkpoints: { enabled: true, interval_ms: shorter(s.checkpoints.interval_ms, 0.75, 20) },
    }),
  },
  network_partition: {
    priority: 7,
    reason: 'a partitioned agent keeps receiving work: notice missed heartbeats sooner',
    patch: (s) => {
      const timeout = shorter(s.failover.heartbeat_timeout_ms, 0.8, 30);
      return {
        failover: {
          enabled: true,
          heartbeat_timeout_ms: timeout,
          heartbeat_interval_ms: Math.min(s.failover.heartbeat_interval_ms, Math.max(1, Math.floor(timeout / 3))),
        },
      };
    },
  },
  kill_agent: {
    priority: 6,
    reason: 'a killed agent loses its work until resurrected: restart sooner and allow more restarts',
    patch: (s) => {
      const backoff = shorter(s.supervisor.backoff_ms, 0.5, 5);
      return {
        supervisor: {
          enabled: true,
          backoff_ms: backoff,
          max_backoff_ms: Math.max(backoff, s.supervisor.max_backoff_ms),
          max_restarts: Math.min(50, s.supervisor.max_restarts + 2),
        },
      };
    },
  },
  llm_failure: {
    priority: 6,
    reason: 'LLM errors fail steps: retry more and fall back to the second provider',
    patch: (s) => ({ llm: { enabled: true, retries: Math.min(6, s.llm.retries + 1), fallback: true } }),
  },
  pause_agent: {
    priority: 5,
    reason: 'a paused agent holds its queue: route around silent agents sooner',
    patch: (s) => {
      const timeout = shorter(s.failover.heartbeat_timeout_ms, 0.85, 30);
      return {
        failover: {
          enabled: true,
          heartbeat_timeout_ms: timeout,
          heartbeat_interval_ms: Math.min(s.failover.heartbeat_interval_ms, Math.max(1, Math.floor(timeout / 3))),
        },
      };
    },
  },
  tool_fault: {
    priority: 4,
    reason: 'tool results come back wrong: validate them and retry a call whose answer does not hold',
    patch: (s) => ({
      tools: { enabled: true, timeout_ms: s.tools.timeout_ms, retries: Math.min(5, s.tools.retries + 1) },
    }),
  },
  tool_timeout: {
    priority: 5,
    reason: 'hung tool calls stall steps: time them out sooner and retry',
    patch: (s) => ({
      tools: {
        enabled: true,
        timeout_ms: shorter(s.tools.timeout_ms, 0.75, 20),
        retries: Math.min(5, s.tools.retries + 1),
      },
    }),
  },
  slow_agent: {
    priority: 4,
    reason: 'a slow agent delays its steps past their timeout: retry steps elsewhere',
    patch: (s) => ({ dag: { step_retries: Math.min(5, s.dag.step_retries + 1) } }),
  },
  mcp_disconnect: {
    priority: 4,
    reason: 'a closed MCP session removes tools until reconnected: reconnect sooner',
    patch: (s) => {
      const backoff = shorter(s.mcp.backoff_ms, 0.5, 5);
      return { mcp: { enabled: true, backoff_ms: backoff, max_backoff_ms: Math.max(backoff, s.mcp.max_backoff_ms) } };
    },
  },
  resume_agent: {
    priority: 3,
    reason: 'an agent that cannot resume stays out of rotation: let the supervisor restart it',
    patch: () => ({ supervisor: { enabled: true } }),
  },
};

/** the proposal for a failed result, computed against the strategy in force */
export function proposePatch(result: Result, current: Strategy, now: Date = new Date()): PatchProposal {
  const rule = PROPOSAL_RULES[result.action.type];
  const patch = rule.patch(current);
  const problems = crossCheck(mergeStrategy(current, patch));
  if (problems.length > 0)
    throw new Error(`proposal rule for ${result.action.type} produced an invalid strategy: ${problems.join('; ')}`);
  return {
    id: randomUUID(),
    action_id: result.action.id,
    action_type: result.action.type,
    target_id: result.action.target_id,
    priority: rule.priority,
    patch,
    reason: rule.reason,
    created_at: now.toISOString(),
  };
}

/** true when applying `patch` would change nothing */
export function isNoOp(current: Strategy, patch: StrategyPatch): boolean {
  return JSON.stringify(mergeStrategy(current, patch)) === JSON.stringify(current);
}
