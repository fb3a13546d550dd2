/**
 * An action aimed at an agent, node or edge the target does not have is
 * refused before anything is injected (DESIGN §5): one usage error naming
 * each such action by its path. The names come from the started target
 * (the embedded runtime's are fixed; a process or remote target tells them
 * when it starts), so one check serves every entry point.
 */
import { SELF_TARGETING, type ActionType } from './action.js';
import type { DAGEdge } from './providers.js';
import type { Injector } from './injector.js';
import { UsageError } from '../shared/errors.js';

/** what an action is aimed at, wherever it comes from (a scenario step, a request body, a replayed report) */
export interface AimedAction {
  type: ActionType;
  target_id?: string | undefined;
  source_id?: string | undefined;
}

export interface TargetNames {
  agents: string[];
  /** undefined when the target has no workflow DAG (its DAG faults are refused as unsupported) */
  dag?: { nodes: string[]; edges: DAGEdge[] };
}

/** a problem at `path` (the action's own path, e.g. `actions[2].action`), with the field it is about */
export interface TargetNameProblem {
  path: string;
  message: string;
}

/** picks a running worker at run time (scenario schedule's `random`) */
const RANDOM = 'random';

export async function targetNames(injector: Injector): Promise<TargetNames> {
  const hasDag = injector.hasDag;
  const [agents, nodes, edges] = await Promise.all([
    injector.agents(),
    hasDag ? injector.dagNodes() : [],
    hasDag ? injector.dagEdges() : [],
  ]);
  return { agents: agents.map((a) => a.id), ...(hasDag ? { dag: { nodes, edges } } : {}) };
}

/** `actions` paired with their paths; an action the target does not name is a problem at its field's path */
export function unknownTargetProblems(
  actions: ReadonlyArray<{ path: string; action: AimedAction }>,
  names: TargetNames,
): TargetNameProblem[] {
  const agents = new Set(names.agents);
  const list = (items: string[]) =>
    items.length === 0 ? 'none' : items.length <= 12 ? items.join(', ') : `${items.slice(0, 12).join(', ')}, …`;
  const problems: TargetNameProblem[] = [];
  for (const { path, action } of actions) {
    if (SELF_TARGETING.has(action.type)) continue;
    const id = action.target_id ?? '';
    if (action.type === 'remove_node' || action.type === 'remove_edge') {
      const dag = names.dag;
      if (!dag) continue;
      const nodes = new Set(dag.nodes);
      if (action.type === 'remove_node') {
        if (!nodes.has(id))
          problems.push({
            path: `${path}.target_id`,
            message: `unknown DAG node "${id}" (the target's nodes: ${list(dag.nodes)})`,
          });
        continue;
      }
      const from = action.source_id ?? '';
      if (!dag.edges.some((e) => e.from === from && e.to === id)) {
        const edges = dag.edges.map((e) => `${e.from}→${e.to}`);
        problems.push({
          path: `${path}.${nodes.has(from) ? 'target_id' : 'source_id'}`,
          message: `unknown DAG edge "${from}→${id}" (the target's edges: ${list(edges)})`,
        });
      }
      continue;
    }
    if (id === RANDOM || agents.has(id)) continue;
    problems.push({
      path: `${path}.target_id`,
      message: `unknown agent "${id}" (the target's agents: ${list([...names.agents].sort())})`,
    });
  }
  return problems;
}

/** throws one UsageError (code `unknown_target`, details: the problems) when any action names what the target lacks */
export function assertKnownTargets(problems: TargetNameProblem[], what: string, targetName: string): void {
  if (problems.length === 0) return;
  throw new UsageError(
    `${what} aims at what ${targetName} does not have; nothing was injected:\n  ${problems.map((p) => `${p.path} ${p.message}`).join('\n  ')}`,
    { code: 'unknown_target', details: problems },
  );
}

/** a scenario's steps checked against the started target's names: the one check a scenario run and trials make */
export async function assertScenarioTargets(
  injector: Injector,
  scenario: { name: string; actions: ReadonlyArray<{ action: AimedAction }> },
  targetName: string,
): Promise<void> {
  const names = await targetNames(injector);
  assertKnownTargets(
    unknownTargetProblems(
      scenario.actions.map((step, i) => ({ path: `actions[${i}].action`, action: step.action })),
      names,
    ),
    `scenario ${scenario.name}`,
    targetName,
  );
}
