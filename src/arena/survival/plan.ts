/**
 * Chooses survival actions. Each tick consumes a fixed number of random draws
 * (kind, target, and each parameter) whatever the target lists look like, so
 * one tick that finds a different set of live agents does not shift the
 * random stream for every tick after it: same seed + same configuration →
 * same sequence of kinds, targets and parameters.
 */
import { ACTION_TYPES, type ActionType } from '../action.js';
import { LOUD_LLM_ERROR_TYPES } from '../../protocol/llm-faults.js';
import { createAction } from '../actions.js';
import type { Action } from '../action.js';
import type { Random } from '../../shared/random.js';
import type { AgentInfo, DAGEdge } from '../providers.js';
import { RuntimeError, UsageError } from '../../shared/errors.js';

/**
 * Default kinds: every fault except `resume_agent`, which only means something after a pause (pauses
 * revert themselves). A target drops from it what it cannot apply, with its reason (survivalKinds): a
 * process target without an mcp: proxy has no tool results for `tool_fault` to change.
 */
export const DEFAULT_SURVIVAL_ACTIONS: readonly ActionType[] = ACTION_TYPES.filter((t) => t !== 'resume_agent');
/** the tool_fault modes survival draws: schema_drift needs the tools' names, so it is left to scenarios */
const SURVIVAL_TOOL_MODES = ['truncate', 'empty', 'corrupt', 'inject', 'duplicate_call'] as const;

/** What exists on the target right now. */
export interface TargetView {
  /** every agent the runtime knows, with its status and role */
  agents: AgentInfo[];
  /** running agents (injector.availableAgentIds) */
  available: string[];
  nodes: string[];
  edges: DAGEdge[];
  /** why an agent cannot take a fault type (Target.agentRefuses): a fault is aimed at the agents that can */
  refuses?: ((agentId: string, type: ActionType) => string | undefined) | undefined;
}

export interface PlanContext {
  random: Random;
  kinds: readonly ActionType[];
  intervalMs: number;
  /** for created_at; ids come from the seeded stream so replays line up */
  now: () => Date;
  index: number;
}

export function parseActionKinds(input: string | readonly string[] | undefined): ActionType[] {
  if (input === undefined) return [...DEFAULT_SURVIVAL_ACTIONS];
  const list = (typeof input === 'string' ? input.split(',') : [...input]).map((s) => s.trim()).filter(Boolean);
  if (list.length === 0) throw new UsageError('--actions: give at least one action type', { code: 'invalid_actions' });
  const unknown = list.filter((k) => !(ACTION_TYPES as readonly string[]).includes(k));
  if (unknown.length > 0) {
    throw new UsageError(
      `--actions: unknown action type${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')} (one of ${ACTION_TYPES.join(', ')})`,
      { code: 'invalid_actions' },
    );
  }
  return [...new Set(list)] as ActionType[];
}

/** A timed fault lasts between half an interval and two intervals (100 ms – 10 s), so faults overlap but do not pile up. */
function faultDuration(u: number, intervalMs: number): number {
  const min = Math.max(100, Math.round(intervalMs / 2));
  const max = Math.min(10_000, Math.max(min, intervalMs * 2));
  return roundTo(min + u * (max - min), 10);
}

export function planAction(view: TargetView, ctx: PlanContext): Action {
  const r = ctx.random;
  // fixed draws per tick, used or not
  const uKind = r.next();
  const uTarget = r.next();
  const uDuration = r.next();
  const uExtra = r.next();
  const uId = Math.floor(r.next() * 2 ** 32);
  const type = ctx.kinds[Math.floor(uKind * ctx.kinds.length)]!;
  const pick = <T>(items: readonly T[]): T | undefined =>
    items.length ? items[Math.floor(uTarget * items.length)] : undefined;
  const allIds = view.agents.map((a) => a.id).sort();
  const agentTarget = () => {
    const pool = view.available.length ? view.available : allIds;
    // among the agents that can take it; when none can, the tick's failure says why
    const able = view.refuses ? pool.filter((id) => view.refuses!(id, type) === undefined) : pool;
    return pick(able.length > 0 ? able : pool) ?? '';
  };
  const options = {
    id: `survival-${ctx.index}-${uId.toString(16).padStart(8, '0')}`,
    created_at: ctx.now().toISOString(),
  };
  const duration = faultDuration(uDuration, ctx.intervalMs);
  switch (type) {
    case 'kill_leader':
    case 'kill_orchestrator':
      return createAction(type, '', options);
    case 'resume_agent': {
      const paused = view.agents
        .filter((a) => a.status === 'paused')
        .map((a) => a.id)
        .sort();
      return createAction(type, pick(paused.length ? paused : allIds) ?? '', options);
    }
    case 'pause_agent':
    case 'network_partition':
    case 'tool_timeout':
      return createAction(type, agentTarget(), { ...options, metadata: { duration } });
    case 'slow_agent':
      // 20–300 ms added to every task while the fault lasts
      return createAction(type, agentTarget(), {
        ...options,
        metadata: { duration, delay: roundTo(20 + uExtra * 280, 10) },
      });
    case 'llm_failure':
      return createAction(type, agentTarget(), {
        ...options,
        metadata: { duration, error_type: LOUD_LLM_ERROR_TYPES[Math.floor(uExtra * LOUD_LLM_ERROR_TYPES.length)] },
      });
    case 'remove_node':
      return createAction(type, pick([...view.nodes].sort()) ?? '', options);
    case 'remove_edge': {
      const edges = [...view.edges].sort((a, b) => `${a.from}>${a.to}`.localeCompare(`${b.from}>${b.to}`));
      const edge = pick(edges);
      return createAction(type, edge?.to ?? '', { ...options, source_id: edge?.from ?? '' });
    }
    case 'kill_agent':
    case 'memory_corrupt':
    case 'mcp_disconnect':
      return createAction(type, agentTarget(), options);
    case 'tool_fault':
      return createAction(type, agentTarget(), {
        ...options,
        metadata: { duration, mode: SURVIVAL_TOOL_MODES[Math.floor(uExtra * SURVIVAL_TOOL_MODES.length)] },
      });
    default: {
      // every fault type is planned above: a new one does not compile until it is given a case
      const unplanned: never = type;
      throw new RuntimeError(`survival cannot plan fault type ${String(unplanned)}`, { code: 'unplanned_fault' });
    }
  }
}

function roundTo(n: number, step: number): number {
  return Math.round(n / step) * step;
}
