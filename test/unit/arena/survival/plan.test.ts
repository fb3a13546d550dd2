import { describe, expect, it } from 'vitest';
import { createRandom } from '../../../../src/shared/random.js';
import {
  parseActionKinds,
  planAction,
  DEFAULT_SURVIVAL_ACTIONS,
  type TargetView,
} from '../../../../src/arena/survival/plan.js';
import { UsageError } from '../../../../src/shared/errors.js';

const view: TargetView = {
  agents: [
    { id: 'agent-1', role: 'leader', status: 'running', restarts: 0 },
    { id: 'agent-2', role: 'worker', status: 'paused', restarts: 0 },
    { id: 'agent-3', role: 'worker', status: 'stopped', restarts: 1 },
  ],
  available: ['agent-1'],
  nodes: ['fetch', 'plan'],
  edges: [{ from: 'fetch', to: 'plan' }],
};
const ctx = (kinds: string[], seed = 1) => ({
  random: createRandom(seed),
  kinds: parseActionKinds(kinds),
  intervalMs: 1000,
  now: () => new Date(0),
  index: 0,
});

describe('planAction', () => {
  it('resumes a paused agent, targets running agents, and draws DAG targets from what exists', () => {
    expect(planAction(view, ctx(['resume_agent'])).target_id).toBe('agent-2');
    expect(planAction(view, ctx(['kill_agent'])).target_id).toBe('agent-1');
    const edge = planAction(view, ctx(['remove_edge']));
    expect([edge.source_id, edge.target_id]).toEqual(['fetch', 'plan']);
    expect(['fetch', 'plan']).toContain(planAction(view, ctx(['remove_node'])).target_id);
    expect(planAction(view, ctx(['kill_leader'])).target_id).toBe('');
  });

  it('timed faults last half an interval to two intervals', () => {
    for (let seed = 0; seed < 50; seed++) {
      const a = planAction(view, ctx(['network_partition'], seed));
      expect(a.metadata!.duration).toBeGreaterThanOrEqual(500);
      expect(a.metadata!.duration).toBeLessThanOrEqual(2000);
    }
  });

  it('uses the same number of random draws whatever exists, so later ticks do not shift', () => {
    const a = createRandom(9);
    const b = createRandom(9);
    planAction(view, { ...ctx(['kill_agent']), random: a });
    planAction({ agents: [], available: [], nodes: [], edges: [] }, { ...ctx(['remove_edge']), random: b });
    expect(a.next()).toBe(b.next());
  });
});

describe('parseActionKinds', () => {
  it('defaults to every kind but resume_agent and rejects unknown ones', () => {
    expect(parseActionKinds(undefined)).toEqual([...DEFAULT_SURVIVAL_ACTIONS]);
    expect(DEFAULT_SURVIVAL_ACTIONS).toHaveLength(13);
    expect(DEFAULT_SURVIVAL_ACTIONS).toContain('tool_fault');
    expect(parseActionKinds(' kill_agent , slow_agent,kill_agent')).toEqual(['kill_agent', 'slow_agent']);
    expect(() => parseActionKinds('kill_agent,nuke,boom')).toThrow(UsageError);
    expect(() => parseActionKinds('kill_agent,nuke,boom')).toThrow('unknown action types nuke, boom');
    expect(() => parseActionKinds(',')).toThrow('at least one');
  });
});
