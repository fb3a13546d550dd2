/**
 * A dry run on a whole target (DESIGN §6 `--dry-run`): the target is brought up only as far as resolving
 * needs (no workload is sent), its agents, pids, proxies and leader are read, the run's timeline is
 * planned with every fault resolved, and the target is stopped again. Nothing is injected. What cannot
 * be resolved (an unknown agent, node or edge, a fault the target cannot apply, a pid not found) is
 * collected in `problems`; the caller makes that exit 2. Scenario run, survival, shrink and trials share it.
 */
import { errorMessage } from '../../shared/errors.js';
import type { ActionType } from '../action.js';
import type { AgentLocation, Target } from '../providers.js';
import { startTarget } from '../run/on-target.js';
import type { Scenario } from '../scenario/types.js';
import { refusedProblems, unsupportedProblems } from '../support.js';
import { resolveSurvivalConfig, type SurvivalOptions } from '../survival/run.js';
import { survivalKinds } from '../survival/on-target.js';
import { unknownTargetProblems } from '../target-names.js';
import { createRandom } from '../../shared/random.js';
import { blockActions } from '../trials/faults.js';
import { planTrials } from '../trials/plan.js';
import { scenarioTimeline, survivalTimeline, trialsBlockFaults, type PlanView } from './timeline.js';
import type { DryRunPlan, PlannedAgent, PlannedFault, PlannedTrials } from './types.js';
import type { LeftOutKind } from '../report.js';

export type DryRunRequest =
  | { kind: 'scenario'; scenario: Scenario; seed: number; timeScale?: number }
  | { kind: 'survival'; options: SurvivalOptions & { seed: number } }
  | {
      kind: 'trials';
      /** checked already (checkTrialsOptions): n trials per task and arm, the scenario of the faulted arms */
      options: {
        n: number;
        seed: number;
        scenario?: Scenario | undefined;
        intensities?: readonly number[] | undefined;
      };
    };

/** faults a process target applies with a signal to the agent's process, not through a proxy */
const SIGNAL_FAULTS: ReadonlySet<ActionType> = new Set([
  'kill_agent',
  'kill_leader',
  'kill_orchestrator',
  'pause_agent',
  'resume_agent',
]);

/** what bringing each kind of target up for a dry run does, said to the user */
const STARTED: Record<Target['kind'], string> = {
  embedded: 'the embedded runtime, in this process, to list its agents; no fault applied; stopped again',
  process:
    'the target (its start command when it has one, and its fault proxies) to find each agent’s pid; no workload sent, no fault applied; stopped again',
  remote: 'a connection to the remote target to learn its agents and faults; nothing sent to the agents',
};

export async function dryRunOnTarget(target: Target, request: DryRunRequest): Promise<DryRunPlan> {
  await startTarget(target, { workload: false });
  try {
    return await plan(target, request);
  } finally {
    await target.stop();
  }
}

async function plan(target: Target, request: DryRunRequest): Promise<DryRunPlan> {
  const [agents, nodes, edges, locations] = await Promise.all([
    target.runtime.listAgents(),
    target.dag ? target.dag.listNodes() : ([] as string[]),
    target.dag ? target.dag.listEdges() : [],
    target.locate ? target.locate() : ([] as AgentLocation[]),
  ]);
  const view: PlanView = {
    agents,
    nodes,
    edges,
    ...(target.agentRefuses ? { refuses: (id: string, type: ActionType) => target.agentRefuses!(id, type) } : {}),
  };
  const problems: string[] = [];
  let timeline: PlannedFault[];
  let name: string;
  let seed: number;
  let warmupMs: number;
  let cooldownMs: number;
  let trials: PlannedTrials | undefined;
  let leftOut: LeftOutKind[] | undefined;
  if (request.kind === 'trials') {
    const { scenario } = request.options;
    name = scenario ? `under ${scenario.name}` : '(clean only)';
    seed = request.options.seed;
    warmupMs = 0;
    cooldownMs = 0;
    if (scenario) problems.push(...scenarioProblems(target, scenario, agents, nodes, edges));
    ({ trials, timeline } = trialsPlan(target, request.options, view, problems));
  } else if (request.kind === 'scenario') {
    const { scenario } = request;
    const timeScale = request.timeScale ?? 1;
    name = scenario.name;
    seed = request.seed;
    warmupMs = Math.round(scenario.config.warmup_ms * timeScale);
    cooldownMs = Math.round(scenario.config.cooldown_ms * timeScale);
    problems.push(...scenarioProblems(target, scenario, agents, nodes, edges));
    timeline = scenarioTimeline(scenario, { seed, timeScale, view });
  } else {
    const config = resolveSurvivalConfig(request.options);
    name = 'survival';
    seed = request.options.seed;
    warmupMs = config.warmupMs;
    cooldownMs = config.cooldownMs;
    let kinds: readonly ActionType[] = config.kinds;
    try {
      const chosen = survivalKinds(target, request.options, config);
      kinds = chosen.kinds;
      if (chosen.leftOut.length > 0) leftOut = chosen.leftOut;
    } catch (err) {
      problems.push(errorMessage(err));
    }
    timeline = survivalTimeline({
      seed,
      kinds,
      durationMs: config.durationMs,
      intervalMs: config.intervalMs,
      warmupMs: config.warmupMs,
      view,
    });
  }
  const byId = new Map(locations.map((l) => [l.id, l]));
  for (const fault of timeline) {
    const where = byId.get(fault.target);
    if (!where) continue;
    if (where.pid !== undefined) fault.pid = where.pid;
    // a signal fault hits the pid; the others go through the agent's proxies
    if (where.proxies.length > 0 && !SIGNAL_FAULTS.has(fault.type)) fault.proxies = where.proxies;
    if (where.problem !== undefined) problems.push(`${fault.label} ${fault.type} on ${fault.target}: ${where.problem}`);
  }
  for (const fault of timeline)
    if (fault.target === '' && (fault.type === 'kill_leader' || fault.type === 'kill_orchestrator'))
      problems.push(
        `${fault.label} ${fault.type}: target ${target.name} has no ${fault.type === 'kill_leader' ? 'leader' : 'active orchestrator'} now`,
      );
  const planned: PlannedAgent[] = agents.map((a) => {
    const where = byId.get(a.id);
    return {
      ...a,
      ...(where?.pid !== undefined ? { pid: where.pid } : {}),
      ...(where?.pid_source !== undefined ? { pid_source: where.pid_source } : {}),
      ...(where && where.proxies.length > 0 ? { proxies: where.proxies } : {}),
    };
  });
  return {
    kind: request.kind,
    name,
    seed,
    target: { name: target.name, kind: target.kind, started: STARTED[target.kind] },
    agents: planned,
    leader: agents.find((a) => a.role === 'leader')?.id ?? null,
    warmup_ms: warmupMs,
    cooldown_ms: cooldownMs,
    timeline,
    problems: [...new Set(problems)],
    ...(leftOut ? { action_kinds_left_out: leftOut } : {}),
    ...(trials ? { trials } : {}),
    injected: 0,
  };
}

/** what a target cannot do of a scenario's steps, and the agents, nodes and edges it does not have */
function scenarioProblems(
  target: Target,
  scenario: Scenario,
  agents: PlanView['agents'],
  nodes: string[],
  edges: PlanView['edges'],
): string[] {
  const problems = [
    ...unsupportedProblems(
      target,
      scenario.actions.map((s) => s.action.type),
    ),
    ...refusedProblems(
      target,
      scenario.actions.map((s) => s.action),
    ),
  ];
  const names = { agents: agents.map((a) => a.id), ...(target.dag ? { dag: { nodes, edges } } : {}) };
  for (const p of unknownTargetProblems(
    scenario.actions.map((step, i) => ({ path: `actions[${i}].action`, action: step.action })),
    names,
  ))
    problems.push(`${p.path} ${p.message}`);
  return problems;
}

/** the blocks in the order runTrialsOnTarget takes them, from the same seeded forks, and each faulted block's faults */
function trialsPlan(
  target: Target,
  options: { n: number; seed: number; scenario?: Scenario | undefined; intensities?: readonly number[] | undefined },
  view: PlanView,
  problems: string[],
): { trials: PlannedTrials; timeline: PlannedFault[] } {
  const tasks = target.trials?.tasks.map((t) => t.id) ?? [];
  if (tasks.length === 0) problems.push(`target ${target.name} lists no tasks: add tasks: to its target file`);
  const { scenario } = options;
  const random = createRandom(options.seed);
  const { arms, blocks: planned } = planTrials(options, tasks);
  // as the run refuses them: each --intensity arm's actions as its blocks apply them
  for (const arm of scenario ? arms.filter((a) => a.intensity !== undefined) : [])
    for (const p of refusedProblems(target, blockActions(scenario!, arm)))
      problems.push(`at --intensity ${arm.intensity}: ${p}`);
  const timeline: PlannedFault[] = [];
  const blocks = planned.map((block) => {
    const name = `r${block.round}.${block.arm.name}`;
    if (!block.arm.faulted || !scenario) return { round: block.round, arm: block.arm.name, tasks: block.tasks };
    const faults = trialsBlockFaults(
      scenario,
      blockActions(scenario, block.arm),
      name,
      random.fork(`trials.target.${block.round}.${block.arm.name}`),
      view,
    );
    timeline.push(...faults);
    return { round: block.round, arm: block.arm.name, tasks: block.tasks, faults };
  });
  return { trials: { n: options.n, tasks, arms: arms.map((a) => a.name), blocks }, timeline };
}
