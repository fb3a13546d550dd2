import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/shared/clock.js';
import { ConflictError, NotFoundError, UsageError } from '../../../src/shared/errors.js';
import { AgentRegistry } from '../../../src/workflow/registry.js';
import { executeWorkflow } from '../../../src/workflow/engine.js';
import type { StepContext, WorkflowDefinition, WorkflowEvent } from '../../../src/workflow/types.js';

const diamond: WorkflowDefinition = {
  id: 'diamond',
  steps: [
    { id: 'fetch', agent_type: 'echo' },
    { id: 'plan', agent_type: 'echo', depends_on: ['fetch'] },
    { id: 'tool', agent_type: 'echo', depends_on: ['plan'] },
    { id: 'recall', agent_type: 'echo', depends_on: ['plan'] },
    { id: 'answer', agent_type: 'echo', depends_on: ['tool', 'recall'] },
  ],
};

/** an agent whose output names its step and the outputs it received */
function echoRegistry() {
  const registry = new AgentRegistry();
  registry.register('echo', (step) => ({
    async execute(ctx: StepContext) {
      const deps = Object.entries(ctx.inputs)
        .map(([k, v]) => `${k}:${String(v)}`)
        .sort()
        .join(',');
      return `${step.id}(${deps || String(ctx.workflowInput)})`;
    },
  }));
  return registry;
}

/** steps that wait until released by the test, to observe concurrency */
function gatedRegistry() {
  const registry = new AgentRegistry();
  const gates = new Map<string, () => void>();
  let live = 0;
  let peak = 0;
  registry.register('gated', (step) => ({
    async execute() {
      live++;
      peak = Math.max(peak, live);
      await new Promise<void>((resolve) => gates.set(step.id, resolve));
      live--;
      return step.id;
    },
  }));
  return { registry, gates, peak: () => peak };
}

const tick = async () => {
  for (let i = 0; i < 30; i++) await Promise.resolve();
};

describe('AgentRegistry', () => {
  it('rejects a type registered twice and names unknown types', () => {
    const r = new AgentRegistry();
    r.register('a', () => ({ execute: async () => 1 }));
    expect(() => r.register('a', () => ({ execute: async () => 2 }))).toThrow(ConflictError);
    expect(() => r.resolve('zzz')).toThrow(NotFoundError);
    expect(() => r.resolve('zzz')).toThrow(/zzz/);
    expect(r.has('a')).toBe(true);
    expect(r.types()).toEqual(['a']);
  });
});

describe('executeWorkflow', () => {
  it('runs steps in dependency order and passes outputs downstream', async () => {
    const events: WorkflowEvent[] = [];
    const result = await executeWorkflow(diamond, {
      registry: echoRegistry(),
      input: 'q',
      onEvent: (e) => events.push(e),
      executionId: 'x1',
    });
    expect(result.status).toBe('completed');
    expect(result.execution_id).toBe('x1');
    expect(result.output).toBe('answer(recall:recall(plan:plan(fetch:fetch(q))),tool:tool(plan:plan(fetch:fetch(q))))');
    expect(result.steps.map((s) => s.status)).toEqual([
      'completed',
      'completed',
      'completed',
      'completed',
      'completed',
    ]);
    const started = events.filter((e) => e.type === 'step.started').map((e) => (e as { step_id: string }).step_id);
    expect(started.indexOf('fetch')).toBeLessThan(started.indexOf('plan'));
    expect(started.indexOf('plan')).toBeLessThan(started.indexOf('tool'));
    expect(started.indexOf('recall')).toBeLessThan(started.indexOf('answer'));
    expect(events[0].type).toBe('workflow.started');
    expect(events.at(-1)!.type).toBe('workflow.completed');
  });

  it('runs independent steps in parallel, bounded by maxParallel', async () => {
    const wide: WorkflowDefinition = {
      id: 'wide',
      steps: ['a', 'b', 'c', 'd'].map((id) => ({ id, agent_type: 'gated' })),
    };
    for (const [maxParallel, expected] of [
      [undefined, 4],
      [2, 2],
      [1, 1],
    ] as const) {
      const { registry, gates, peak } = gatedRegistry();
      const run = executeWorkflow(wide, { registry, maxParallel });
      for (let i = 0; i < 4; i++) {
        await tick();
        [...gates.values()].forEach((release) => release());
        gates.clear();
      }
      const result = await run;
      expect(result.status).toBe('completed');
      expect(peak()).toBe(expected);
      expect(result.output).toEqual({ a: 'a', b: 'b', c: 'c', d: 'd' });
    }
  });

  it('reports events in real time, while steps are still running', async () => {
    const { registry, gates } = gatedRegistry();
    const events: string[] = [];
    const run = executeWorkflow(
      {
        id: 'two',
        steps: [
          { id: 'a', agent_type: 'gated' },
          { id: 'b', agent_type: 'gated', depends_on: ['a'] },
        ],
      },
      { registry, onEvent: (e) => events.push(e.type) },
    );
    await tick();
    expect(events).toEqual(['workflow.started', 'step.started']);
    gates.get('a')!();
    await tick();
    expect(events).toEqual(['workflow.started', 'step.started', 'step.completed', 'step.started']);
    gates.get('b')!();
    await run;
    expect(events.at(-1)).toBe('workflow.completed');
  });

  it('aborts a step at its timeout even if the agent ignores the signal', async () => {
    const clock = new ManualClock();
    const registry = new AgentRegistry();
    let sawAbort = false;
    registry.register('hang', () => ({
      execute: (ctx) =>
        new Promise(() => {
          ctx.signal.addEventListener('abort', () => (sawAbort = true));
        }),
    }));
    const run = executeWorkflow(
      { id: 't', recovery: 'fail_fast', steps: [{ id: 's', agent_type: 'hang', timeout_ms: 100 }] },
      { registry, clock },
    );
    await clock.advance(99);
    expect(sawAbort).toBe(false);
    await clock.advance(1);
    const result = await run;
    expect(sawAbort).toBe(true);
    expect(result.status).toBe('failed');
    expect(result.steps[0].error).toMatch(/timed out after 100 ms/);
    expect(result.output).toBeNull();
  });

  it('retries a failing step with the same agent under `retry`', async () => {
    const registry = new AgentRegistry();
    let built = 0;
    let calls = 0;
    registry.register('flaky', () => {
      built++;
      return { execute: async () => (++calls < 3 ? Promise.reject(new Error(`boom ${calls}`)) : 'ok') };
    });
    const events: WorkflowEvent[] = [];
    const result = await executeWorkflow(
      { id: 'r', recovery: 'retry', steps: [{ id: 's', agent_type: 'flaky', retries: 2 }] },
      { registry, onEvent: (e) => events.push(e) },
    );
    expect(result.status).toBe('completed');
    expect(result.steps[0]).toMatchObject({ status: 'completed', attempts: 3, replacements: 0, output: 'ok' });
    expect(built).toBe(1);
    expect(
      events.filter((e) => e.type === 'step.failed').map((e) => (e as { will_retry: boolean }).will_retry),
    ).toEqual([true, true]);
  });

  it('replaces a broken agent with a fresh one under `replace_node`', async () => {
    const registry = new AgentRegistry();
    let built = 0;
    registry.register('breaks-once', () => {
      const n = ++built;
      // the first instance is broken for good; retrying it alone would never succeed
      return { execute: async () => (n === 1 ? Promise.reject(new Error('corrupt agent')) : `fresh-${n}`) };
    });
    const def: WorkflowDefinition = { id: 'rn', steps: [{ id: 's', agent_type: 'breaks-once', retries: 3 }] };
    const replaced = await executeWorkflow({ ...def, recovery: 'replace_node' }, { registry });
    expect(replaced.status).toBe('completed');
    expect(replaced.steps[0]).toMatchObject({ attempts: 2, replacements: 1, output: 'fresh-2' });

    built = 0;
    const retried = await executeWorkflow({ ...def, recovery: 'retry' }, { registry });
    expect(retried.status).toBe('failed');
    expect(retried.steps[0].attempts).toBe(4);
  });

  it('skips dependents of a failed step but finishes independent branches', async () => {
    const registry = echoRegistry();
    registry.register('fail', () => ({ execute: async () => Promise.reject(new Error('tool down')) }));
    const def: WorkflowDefinition = {
      ...diamond,
      steps: diamond.steps.map((s) => (s.id === 'tool' ? { ...s, agent_type: 'fail', retries: 0 } : s)),
    };
    const result = await executeWorkflow(def, { registry, input: 'q' });
    expect(result.status).toBe('failed');
    expect(result.error).toMatch(/step 'tool' failed: tool down/);
    const byId = Object.fromEntries(result.steps.map((s) => [s.step_id, s.status]));
    expect(byId).toEqual({
      fetch: 'completed',
      plan: 'completed',
      tool: 'failed',
      recall: 'completed',
      answer: 'skipped',
    });
  });

  it('fail_fast stops the run and aborts steps still running', async () => {
    const registry = new AgentRegistry();
    let slowAborted = false;
    registry.register('slow', () => ({
      execute: (ctx) =>
        new Promise((_, reject) =>
          ctx.signal.addEventListener('abort', () => ((slowAborted = true), reject(ctx.signal.reason))),
        ),
    }));
    registry.register('fail', () => ({ execute: async () => Promise.reject(new Error('nope')) }));
    registry.register('echo', () => ({ execute: async () => 'x' }));
    const result = await executeWorkflow(
      {
        id: 'ff',
        recovery: 'fail_fast',
        steps: [
          { id: 'slow', agent_type: 'slow' },
          { id: 'bad', agent_type: 'fail', retries: 5 },
          { id: 'after', agent_type: 'echo', depends_on: ['slow'] },
        ],
      },
      { registry },
    );
    expect(result.status).toBe('failed');
    expect(slowAborted).toBe(true);
    expect(result.steps.map((s) => [s.step_id, s.status, s.attempts])).toEqual([
      ['slow', 'failed', 1],
      ['bad', 'failed', 1],
      ['after', 'skipped', 0],
    ]);
  });

  it('is cancelled by its signal', async () => {
    const { registry } = gatedRegistry();
    const ac = new AbortController();
    const run = executeWorkflow(
      {
        id: 'c',
        steps: [
          { id: 'a', agent_type: 'gated' },
          { id: 'b', agent_type: 'gated', depends_on: ['a'] },
        ],
      },
      { registry, signal: ac.signal },
    );
    await tick();
    ac.abort(new Error('user pressed ctrl-c'));
    const result = await run;
    expect(result.status).toBe('cancelled');
    expect(result.steps.map((s) => s.status)).toEqual(['failed', 'skipped']);
  });

  it('fails a run that exceeds the workflow timeout', async () => {
    const clock = new ManualClock();
    const { registry } = gatedRegistry();
    const run = executeWorkflow(
      { id: 'wt', timeout_ms: 500, steps: [{ id: 'a', agent_type: 'gated' }] },
      { registry, clock },
    );
    await clock.advance(500);
    const result = await run;
    expect(result.status).toBe('failed');
    expect(result.error).toMatch(/timed out after 500 ms/);
  });

  it('throws a UsageError listing every problem with its path', async () => {
    const bad = {
      id: 'bad',
      output_step: 'nowhere',
      steps: [
        { id: 'a', agent_type: 'echo', depends_on: ['c'] },
        { id: 'a', agent_type: 'echo' },
        { id: 'b', agent_type: 'echo', depends_on: ['ghost'] },
        { id: 'c', agent_type: 'echo', depends_on: ['d'] },
        { id: 'd', agent_type: 'mystery', depends_on: ['a'] },
      ],
    } as WorkflowDefinition;
    const err = await executeWorkflow(bad, { registry: echoRegistry() }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UsageError);
    const paths = ((err as UsageError).details as { errors: { path: string; message: string }[] }).errors.map(
      (e) => `${e.path}: ${e.message}`,
    );
    expect(paths).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^steps\[1\]\.id: duplicate step id 'a'/),
        expect.stringMatching(/^steps\[2\]\.depends_on\[0\]: unknown step 'ghost'/),
        expect.stringMatching(/^steps\[4\]\.agent_type: unknown agent type 'mystery'/),
        expect.stringMatching(/^steps\[\d\]\.depends_on: dependency cycle: (\w → ){3}\w$/),
        expect.stringMatching(/^output_step: unknown step 'nowhere'/),
      ]),
    );
    expect((err as Error).message).toMatch(/5 problems/);
  });
});
