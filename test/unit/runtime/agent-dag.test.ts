import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/shared/clock.js';
import { createAgent } from '../../../src/runtime/agent.js';
import { createAgentMemory } from '../../../src/runtime/memory/index.js';
import { createSubsystems } from '../../../src/runtime/subsystems.js';
import { DEFAULT_STRATEGY } from '../../../src/runtime/strategy.js';
import { createLiveDag } from '../../../src/runtime/dag.js';
import { STEADY_STATE_WORKFLOW, expectedOutput, runInput } from '../../../src/runtime/steady-state.js';
import { NotFoundError } from '../../../src/shared/errors.js';

function agent(clock = new ManualClock()) {
  const subsystems = createSubsystems({ clock, strategy: DEFAULT_STRATEGY, agentId: 'a' });
  return {
    clock,
    agent: createAgent({
      id: 'a',
      kind: 'worker',
      clock,
      memory: createAgentMemory({ clock }),
      subsystems,
      concurrency: 2,
    }),
  };
}

/** one turn of the event loop: an agent starts what was submitted to it in the next one */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('agent task loop', () => {
  it('starts a submitted task in a later turn of the event loop, as a message on a network arrives', async () => {
    const { agent: a } = agent();
    const order: string[] = [];
    const tasks = ['one', 'two', 'three'].map((name) => a.submit(async () => order.push(name)));
    order.push('submitted');
    await Promise.resolve();
    expect(order).toEqual(['submitted']);
    expect(a.load).toBe(3);
    await Promise.all(tasks);
    expect(order).toEqual(['submitted', 'one', 'two', 'three']);
    // killed before the next turn: the queued tasks are lost, none runs
    const lost = a.submit(async () => order.push('never'));
    a.kill();
    await expect(lost).rejects.toThrow(/killed/);
    await nextTurn();
    expect(order).not.toContain('never');
  });

  it('runs tasks with bounded concurrency, delays each by the slow fault', async () => {
    const { clock, agent: a } = agent();
    const order: string[] = [];
    a.slowMs = 100;
    const one = a.submit(async () => order.push('one'));
    await nextTurn(); // a submitted task starts in a later turn of the event loop
    await clock.advance(99);
    expect(order).toEqual([]);
    await clock.advance(1);
    await one;
    expect(order).toEqual(['one']);
  });

  it('kill loses queued and in-flight tasks; restart takes new work with the same memory', async () => {
    const { clock, agent: a } = agent();
    a.memory.set('k', 1);
    const hanging = [1, 2, 3].map(() => a.submit((signal) => clock.sleep(10_000, signal)));
    expect(a.load).toBe(3);
    a.kill();
    for (const p of hanging) await expect(p).rejects.toThrow(/killed/);
    expect(a.counters.tasks_lost).toBe(3);
    await expect(a.submit(async () => 1)).rejects.toThrow(/agent a is stopped/);
    a.restart(createSubsystems({ clock, strategy: DEFAULT_STRATEGY, agentId: 'a' }));
    await expect(a.submit(async () => 'back')).resolves.toBe('back');
    expect(a.memory.get('k')).toBe(1);
    expect(a.restarts).toBe(1);
  });

  it('halt cancels a slowed task and its timer without counting a kill; the loop takes work again', async () => {
    const { clock, agent: a } = agent();
    a.slowMs = 600_000;
    const slowed = a.submit(async () => 'late');
    await nextTurn();
    expect(clock.pendingTimers()).toBeGreaterThan(0);
    a.halt();
    await expect(slowed).rejects.toThrow(/stopping with its runtime/);
    expect(clock.pendingTimers()).toBe(0);
    expect(a.counters.tasks_lost).toBe(0);
    a.slowMs = 0;
    await expect(a.submit(async () => 'next')).resolves.toBe('next');
  });

  it('a paused agent queues work and runs it on resume', async () => {
    const { agent: a } = agent();
    a.pause();
    let ran = false;
    const p = a.submit(async () => (ran = true));
    await Promise.resolve();
    expect(ran).toBe(false);
    a.resume();
    await p;
    expect(ran).toBe(true);
  });
});

describe('live DAG', () => {
  it('removes a node with its edges, reports the damage and restores from the definition', () => {
    const dag = createLiveDag(STEADY_STATE_WORKFLOW);
    const removed = dag.removeNode('plan');
    expect(removed).toEqual([
      { from: 'fetch', to: 'plan' },
      { from: 'plan', to: 'tool' },
      { from: 'plan', to: 'recall' },
    ]);
    expect(dag.damage()).toEqual(['node plan missing']);
    expect(dag.current().steps.find((s) => s.id === 'tool')!.depends_on).toEqual([]);
    dag.restore();
    expect(dag.isDamaged()).toBe(false);
    dag.removeEdge('tool', 'answer');
    expect(dag.damage()).toEqual(['edge tool→answer missing']);
    expect(STEADY_STATE_WORKFLOW.steps.find((s) => s.id === 'answer')!.depends_on).toEqual(['tool', 'recall']);
    expect(() => dag.removeEdge('tool', 'answer')).toThrow(NotFoundError);
    expect(() => dag.removeNode('x')).toThrow(/unknown DAG node "x"/);
  });

  it('each run has a known expected output', () => {
    expect(expectedOutput(runInput(1))).toEqual({
      run: 1,
      answer: expect.stringMatching(/^\w+\|\d+\|doc:\w+$/),
      recall_verified: true,
    });
    expect(expectedOutput(runInput(2))).not.toEqual(expectedOutput(runInput(1)));
  });
});
