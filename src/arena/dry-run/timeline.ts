/**
 * The timelines a dry run prints, computed the way the real runs compute them: a scenario's schedule
 * (delays, depends_on, max_concurrent, the time scale) with every injection taken as instant, and
 * survival's ticks from the same seeded draws (./../survival/plan.ts), so a seed plans exactly the
 * kinds, durations and parameters a real run with that seed uses. What depends on the target's state at
 * the moment (which agents are running, who leads) is guessed from the target as it is now and said so.
 */
import { createRandom, type Random } from '../../shared/random.js';
import { tryParseDuration } from '../../shared/duration.js';
import type { Action, ActionType } from '../action.js';
import type { AgentInfo, DAGEdge } from '../providers.js';
import { RANDOM_TARGET, scaleMetadata } from '../scenario/schedule.js';
import type { Scenario, ScenarioStep } from '../scenario/types.js';
import { planAction } from '../survival/plan.js';
import type { PlannedFault } from './types.js';

export interface PlanView {
  agents: AgentInfo[];
  nodes: string[];
  edges: DAGEdge[];
  /** why an agent cannot take a fault type (Target.agentRefuses): survival aims at the agents that can */
  refuses?: ((agentId: string, type: ActionType) => string | undefined) | undefined;
}

const running = (view: PlanView) =>
  view.agents
    .filter((a) => a.status === 'running')
    .map((a) => a.id)
    .sort();

/** when each step runs, as runSteps schedules it with instant injections: [step index, start of its delay] */
function startTimes(scenario: Scenario, timeScale: number): Array<{ index: number; startMs: number }> {
  const steps = scenario.actions;
  const { parallel_actions, max_concurrent } = scenario.config;
  const limit = parallel_actions ? max_concurrent : 1;
  const byLabel = new Map(steps.map((s, i) => [s.label, i]));
  const finish: Array<number | undefined> = steps.map(() => undefined);
  const order: Array<{ index: number; startMs: number }> = [];
  const active: number[] = [];
  let now = 0;
  for (let guard = 0; order.length < steps.length && guard <= steps.length * 2 + 1; guard++) {
    for (let i = 0; i < steps.length && active.length < limit; i++) {
      if (order.some((o) => o.index === i)) continue;
      const ready = steps[i]!.depends_on.every((d) => {
        const f = finish[byLabel.get(d)!];
        return f !== undefined && f <= now;
      });
      if (!ready) {
        if (!parallel_actions) break; // sequential keeps file order: wait for this one
        continue;
      }
      order.push({ index: i, startMs: now });
      finish[i] = now + Math.round(steps[i]!.delay_ms * timeScale);
      active.push(i);
      if (!parallel_actions) break;
    }
    if (active.length === 0) break; // what is left waits on something that never runs
    now = Math.min(...active.map((i) => finish[i]!));
    for (let k = active.length - 1; k >= 0; k--) if (finish[active[k]!]! <= now) active.splice(k, 1);
  }
  return order;
}

export function scenarioTimeline(
  scenario: Scenario,
  options: { seed: number; timeScale: number; view: PlanView },
): PlannedFault[] {
  const warmup = Math.round(scenario.config.warmup_ms * options.timeScale);
  // the run's seeded stream picks `random` targets, one draw per random step in the order they run
  const random = createRandom(options.seed);
  const planned: PlannedFault[] = [];
  for (const { index, startMs } of startTimes(scenario, options.timeScale)) {
    const step = scenario.actions[index]!;
    const at = warmup + startMs + Math.round(step.delay_ms * options.timeScale);
    planned.push(scenarioFault(step, at, options, random));
  }
  return planned.sort((a, b) => a.at_ms - b.at_ms);
}

function scenarioFault(
  step: ScenarioStep,
  at: number,
  options: { timeScale: number; view: PlanView },
  random: Random,
): PlannedFault {
  const spec = step.action;
  let target = spec.target_id ?? '';
  let decided: string | undefined;
  if (target === RANDOM_TARGET) {
    const workers = options.view.agents
      .filter((a) => (a.role === 'leader' || a.role === 'worker') && a.status === 'running')
      .map((a) => a.id)
      .sort();
    target = workers.length > 0 ? random.pick(workers) : RANDOM_TARGET;
    decided = 'a seeded pick among the workers running then; this one if they all still run';
  }
  const metadata = spec.metadata ? scaleMetadata(spec.metadata, options.timeScale) : undefined;
  const fault = resolveAim(
    { type: spec.type, target_id: target, ...(spec.source_id !== undefined ? { source_id: spec.source_id } : {}) },
    options.view,
  );
  return {
    at_ms: at,
    label: step.label,
    type: spec.type,
    ...fault,
    ...timing(metadata),
    ...(step.depends_on.length > 0 ? { depends_on: step.depends_on } : {}),
    ...((decided ?? fault.decided_at_run_time) ? { decided_at_run_time: decided ?? fault.decided_at_run_time } : {}),
  };
}

export function survivalTimeline(options: {
  seed: number;
  kinds: readonly ActionType[];
  durationMs: number;
  intervalMs: number;
  warmupMs: number;
  view: PlanView;
}): PlannedFault[] {
  const random = createRandom(options.seed);
  const view = { ...options.view, available: running(options.view) };
  const planned: PlannedFault[] = [];
  for (let i = 0; i * options.intervalMs < options.durationMs; i++) {
    const action: Action = planAction(view, {
      random,
      kinds: options.kinds,
      intervalMs: options.intervalMs,
      now: () => new Date(0),
      index: i,
    });
    const fault = resolveAim(action, options.view);
    const agentAimed = action.target_id !== '' && options.view.agents.some((a) => a.id === action.target_id);
    planned.push({
      at_ms: options.warmupMs + i * options.intervalMs,
      label: `#${i}`,
      type: action.type,
      ...fault,
      ...timing(action.metadata),
      ...(agentAimed
        ? { decided_at_run_time: 'drawn among the agents running then; this one if they all still run' }
        : fault.decided_at_run_time
          ? { decided_at_run_time: fault.decided_at_run_time }
          : {}),
    });
  }
  return planned;
}

/** what an action hits, named: leader and orchestrator as they are now, a node, an edge */
function resolveAim(
  action: { type: ActionType; target_id?: string; source_id?: string },
  view: PlanView,
): Pick<PlannedFault, 'target' | 'decided_at_run_time'> {
  const byRole = (role: string) => view.agents.find((a) => a.role === role)?.id;
  switch (action.type) {
    case 'kill_leader': {
      const leader = byRole('leader');
      return {
        target: leader ?? '',
        decided_at_run_time: `whoever leads then${leader ? ` (now ${leader})` : ''}`,
      };
    }
    case 'kill_orchestrator': {
      const active = byRole('orchestrator');
      return {
        target: active ?? '',
        decided_at_run_time: `the active orchestrator then${active ? ` (now ${active})` : ''}`,
      };
    }
    case 'remove_node':
      return { target: `node ${action.target_id ?? ''}` };
    case 'remove_edge':
      return { target: `edge ${action.source_id ?? ''} → ${action.target_id ?? ''}` };
    default:
      return { target: action.target_id ?? '' };
  }
}

function timing(metadata: Record<string, unknown> | undefined): Pick<PlannedFault, 'duration_ms' | 'params'> {
  if (!metadata) return {};
  const { duration, ...rest } = metadata;
  const ms = duration === undefined ? undefined : tryParseDuration(duration);
  return {
    ...(ms !== undefined ? { duration_ms: ms } : {}),
    ...(Object.keys(rest).length > 0 ? { params: rest } : {}),
  };
}

/**
 * The faults one faulted trials block applies at its start (arena/trials/faults.ts): the scenario's steps
 * with the block's hold and intensity, applied in file order, `random` targets drawn from the block's own
 * seeded fork as the real run draws them. Held for the whole block, so no time or duration is planned.
 */
export function trialsBlockFaults(
  scenario: Scenario,
  specs: readonly ScenarioStep['action'][],
  block: string,
  random: Random,
  view: PlanView,
): PlannedFault[] {
  return scenario.actions.map((step, i) => {
    const fault = scenarioFault({ ...step, action: specs[i]!, depends_on: [] }, 0, { timeScale: 1, view }, random);
    const { duration_ms: _held, ...rest } = fault;
    return {
      ...rest,
      label: `${block}:${step.label}`,
      decided_at_run_time: `applied at the start of block ${block}, reverted at its end${fault.decided_at_run_time ? `; target: ${fault.decided_at_run_time}` : ''}`,
    };
  });
}
