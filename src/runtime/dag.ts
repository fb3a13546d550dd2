/**
 * The live copy of the steady-state workflow DAG. Faults remove nodes and
 * edges from the live copy only; DAG restore rebuilds it from the definition.
 * Each live copy is frozen and replaced, never changed, so the workflow engine
 * checks it once rather than on every run (assertValidWorkflow).
 */
import { deepFreeze } from '../shared/deep-freeze.js';
import { NotFoundError } from '../shared/errors.js';
import type { WorkflowDefinition } from '../workflow/index.js';

export interface DagEdge {
  from: string;
  to: string;
}

export interface LiveDag {
  readonly definition: WorkflowDefinition;
  /** the copy each run executes */
  current(): WorkflowDefinition;
  nodes(): string[];
  edges(): DagEdge[];
  /** removes the step and every edge touching it; returns the removed edges */
  removeNode(id: string): DagEdge[];
  removeEdge(from: string, to: string): void;
  /** true when the live copy differs from the definition */
  isDamaged(): boolean;
  /** what is missing compared with the definition */
  damage(): string[];
  restore(): void;
}

export function edgesOf(def: WorkflowDefinition): DagEdge[] {
  return def.steps.flatMap((s) => (s.depends_on ?? []).map((from) => ({ from, to: s.id })));
}

export function createLiveDag(definition: WorkflowDefinition): LiveDag {
  const pristine = structuredClone(definition);
  let live = deepFreeze(structuredClone(definition));
  const dag: LiveDag = {
    definition: pristine,
    current: () => live,
    nodes: () => live.steps.map((s) => s.id),
    edges: () => edgesOf(live),
    removeNode(id) {
      if (!live.steps.some((s) => s.id === id)) {
        throw new NotFoundError(`unknown DAG node "${id}" (nodes: ${dag.nodes().join(', ') || 'none'})`, {
          code: 'unknown_node',
        });
      }
      const removed = dag.edges().filter((e) => e.from === id || e.to === id);
      const next: WorkflowDefinition = {
        ...live,
        steps: live.steps
          .filter((s) => s.id !== id)
          .map((s) => ({ ...s, depends_on: (s.depends_on ?? []).filter((d) => d !== id) })),
      };
      if (next.output_step === id) delete next.output_step;
      live = deepFreeze(next);
      return removed;
    },
    removeEdge(from, to) {
      if (!dag.edges().some((e) => e.from === from && e.to === to)) {
        const edges =
          dag
            .edges()
            .map((e) => `${e.from}→${e.to}`)
            .join(', ') || 'none';
        throw new NotFoundError(`unknown DAG edge "${from}→${to}" (edges: ${edges})`, { code: 'unknown_edge' });
      }
      live = deepFreeze({
        ...live,
        steps: live.steps.map((s) =>
          s.id === to ? { ...s, depends_on: (s.depends_on ?? []).filter((d) => d !== from) } : s,
        ),
      });
    },
    isDamaged: () => dag.damage().length > 0,
    damage() {
      const nodes = new Set(dag.nodes());
      const edges = new Set(dag.edges().map((e) => `${e.from}→${e.to}`));
      return [
        ...pristine.steps.filter((s) => !nodes.has(s.id)).map((s) => `node ${s.id} missing`),
        ...edgesOf(pristine)
          .filter((e) => nodes.has(e.from) && nodes.has(e.to) && !edges.has(`${e.from}→${e.to}`))
          .map((e) => `edge ${e.from}→${e.to} missing`),
      ];
    },
    restore() {
      live = deepFreeze(structuredClone(pristine));
    },
  };
  return dag;
}
