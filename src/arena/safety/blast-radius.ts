/**
 * `config.max_affected` (DESIGN §16): at most this many agents faulted at once, counted as the
 * agents with an active fault on the target right now. A fault that would take the count past the
 * limit is not applied: the caller reports it skipped, naming `max_affected`.
 */
import { z } from 'zod';
import { SELF_TARGETING, type Action } from '../action.js';
import type { ActiveFault, AgentInfo } from '../providers.js';

/** `1` or `"30%"` */
export type MaxAffected = { count: number } | { percent: number };

const words = 'must be a whole number of agents ≥ 1 or a percentage such as "30%"';

export const maxAffectedSchema = z
  .union([z.number(), z.string()], { error: () => words })
  .transform((v, ctx): MaxAffected => {
    if (typeof v === 'number' && Number.isInteger(v) && v >= 1) return { count: v };
    const m = typeof v === 'string' ? /^\s*(\d+(?:\.\d+)?)\s*%\s*$/.exec(v) : null;
    const percent = m ? Number(m[1]) : Number.NaN;
    if (percent > 0 && percent <= 100) return { percent };
    ctx.addIssue({ code: 'custom', message: `${words} (got ${JSON.stringify(v)})` });
    return z.NEVER;
  })
  .describe('at most this many agents faulted at once (a number, or a percentage of the agents, at least 1)');

/** the limit as a number of agents: a percentage of the target's agents, rounded down, at least 1 */
export function maxAffectedLimit(limit: MaxAffected, agentCount: number): number {
  return 'count' in limit ? limit.count : Math.max(1, Math.floor((limit.percent / 100) * agentCount));
}

export function describeMaxAffected(limit: MaxAffected): string {
  return 'count' in limit ? String(limit.count) : `${limit.percent}%`;
}

/** Faults that take an agent: every fault but a resume (which ends one) and the DAG's. */
function takesAnAgent(action: Pick<Action, 'type'>): boolean {
  return action.type !== 'resume_agent' && action.type !== 'remove_node' && action.type !== 'remove_edge';
}

/**
 * Why `action` would exceed the limit, or undefined when it may run. An agent already faulted may
 * take another fault; a fault whose target the arena finds itself (kill_leader) counts as one more.
 */
export function maxAffectedRefusal(
  limit: MaxAffected,
  action: Pick<Action, 'type' | 'target_id'>,
  agents: readonly AgentInfo[],
  active: readonly ActiveFault[],
): string | undefined {
  if (!takesAnAgent(action)) return undefined;
  const ids = new Set(agents.map((a) => a.id));
  const affected = new Set(active.filter((f) => ids.has(f.target)).map((f) => f.target));
  if (!SELF_TARGETING.has(action.type) && affected.has(action.target_id)) return undefined;
  const max = maxAffectedLimit(limit, agents.length);
  if (affected.size + 1 <= max) return undefined;
  const names = [...affected].sort().join(', ');
  return `skipped: max_affected ${describeMaxAffected(limit)} (${max} agent(s)) reached: ${names} already faulted`;
}
