/**
 * assertValidWorkflow remembers a definition it found valid only when the definition is frozen all
 * the way down (the embedded runtime's live DAG is): nothing that can still change is trusted, and
 * the registry is asked every time.
 */
import { describe, expect, it } from 'vitest';
import { deepFreeze, isDeepFrozen } from '../../../src/shared/deep-freeze.js';
import { UsageError } from '../../../src/shared/errors.js';
import { createLiveDag } from '../../../src/runtime/dag.js';
import { STEADY_STATE_WORKFLOW } from '../../../src/runtime/steady-state.js';
import { AgentRegistry } from '../../../src/workflow/registry.js';
import { assertValidWorkflow } from '../../../src/workflow/validate.js';
import type { WorkflowDefinition } from '../../../src/workflow/types.js';

const twoSteps = (): WorkflowDefinition => ({
  id: 'two',
  steps: [
    { id: 'a', agent_type: 'fetch' },
    { id: 'b', agent_type: 'plan', depends_on: ['a'] },
  ],
});

const registryOf = (...types: string[]) => {
  const registry = new AgentRegistry();
  for (const type of types) registry.register(type, () => ({ execute: async () => null }));
  return registry;
};

describe('assertValidWorkflow on a definition it has seen', () => {
  it('a frozen definition is still checked against each registry it is run with', () => {
    const def = deepFreeze(twoSteps());
    expect(assertValidWorkflow(def, { registry: registryOf('fetch', 'plan') })).toBe(def);
    expect(assertValidWorkflow(def, { registry: registryOf('fetch', 'plan') })).toBe(def);
    expect(() => assertValidWorkflow(def, { registry: registryOf('fetch') })).toThrow(
      /unknown agent type 'plan' \(registered: fetch\)/,
    );
  });

  it('a definition that can still change is checked again: a cycle added after a valid run is caught', () => {
    const def = twoSteps();
    assertValidWorkflow(def);
    def.steps[0]!.depends_on = ['b'];
    expect(() => assertValidWorkflow(def)).toThrow(UsageError);
    expect(() => assertValidWorkflow(def)).toThrow(/cycle/);
  });

  it('nor is a definition frozen only on the outside', () => {
    const def = Object.freeze(twoSteps());
    assertValidWorkflow(def);
    (def.steps[1] as { depends_on: string[] }).depends_on = ['nowhere'];
    expect(() => assertValidWorkflow(def)).toThrow("steps[1].depends_on[0]: unknown step 'nowhere'");
  });

  it("the runtime's live DAG is frozen, and each damaged copy is a new frozen one that is checked afresh", () => {
    const dag = createLiveDag(STEADY_STATE_WORKFLOW);
    const before = dag.current();
    expect(isDeepFrozen(before)).toBe(true);
    dag.removeNode('recall');
    const after = dag.current();
    expect(after).not.toBe(before);
    expect(isDeepFrozen(after)).toBe(true);
    expect(assertValidWorkflow(after).steps.map((s) => s.id)).toEqual(['fetch', 'plan', 'tool', 'answer']);
    dag.restore();
    expect(isDeepFrozen(dag.current())).toBe(true);
  });
});

describe('isDeepFrozen', () => {
  it('is true only when every object and array inside is frozen', () => {
    expect(isDeepFrozen(deepFreeze({ a: [1, { b: 2 }] }))).toBe(true);
    expect(isDeepFrozen(Object.freeze({ a: [1, { b: 2 }] }))).toBe(false);
    expect(isDeepFrozen(Object.freeze({ a: Object.freeze([1, { b: 2 }]) }))).toBe(false);
    expect(isDeepFrozen(42)).toBe(true);
    expect(isDeepFrozen({})).toBe(false);
  });
});
