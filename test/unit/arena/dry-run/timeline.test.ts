import { describe, expect, it } from 'vitest';
import { scenarioTimeline, survivalTimeline, type PlanView } from '../../../../src/arena/dry-run/timeline.js';
import { loadScenario } from '../../../../src/arena/scenario/index.js';
import type { AgentInfo } from '../../../../src/arena/providers.js';

const agent = (id: string, role: AgentInfo['role'], status: AgentInfo['status'] = 'running'): AgentInfo => ({
  id,
  role,
  status,
  restarts: 0,
});
const VIEW: PlanView = {
  agents: [agent('a-1', 'leader'), agent('a-2', 'worker'), agent('a-3', 'worker'), agent('o-1', 'orchestrator')],
  nodes: ['plan', 'tool'],
  edges: [{ from: 'plan', to: 'tool' }],
};

describe('the dry-run timeline', () => {
  it('sequential steps: each delay counts from the end of the one before, after the warmup; the time scale applies', () => {
    const scenario = loadScenario(`
name: seq
config: { warmup: 1s }
actions:
  - { label: one, delay: 500ms, action: { type: kill_agent, target_id: a-2 } }
  - { label: two, delay: 1s, action: { type: pause_agent, target_id: a-3, metadata: { duration: 2s } } }
  - { label: three, delay: 250ms, action: { type: kill_leader } }
`);
    const plan = scenarioTimeline(scenario, { seed: 1, timeScale: 1, view: VIEW });
    expect(plan.map((f) => [f.label, f.at_ms, f.target])).toEqual([
      ['one', 1500, 'a-2'],
      ['two', 2500, 'a-3'],
      ['three', 2750, 'a-1'],
    ]);
    expect(plan[1]!.duration_ms).toBe(2000);
    expect(plan[2]!.decided_at_run_time).toContain('now a-1');
    const half = scenarioTimeline(scenario, { seed: 1, timeScale: 0.5, view: VIEW });
    expect(half.map((f) => f.at_ms)).toEqual([750, 1250, 1375]);
    expect(half[1]!.duration_ms).toBe(1000);
  });

  it('parallel steps: max_concurrent slots and depends_on, as the schedule runs them', () => {
    const scenario = loadScenario(`
name: par
config: { parallel_actions: true, max_concurrent: 2, warmup: 0s }
actions:
  - { label: a, delay: 1s, action: { type: kill_agent, target_id: a-2 } }
  - { label: b, delay: 2s, action: { type: kill_agent, target_id: a-3 } }
  - { label: c, delay: 500ms, action: { type: remove_node, target_id: plan } }
  - { label: d, delay: 100ms, action: { type: remove_edge, source_id: plan, target_id: tool }, depends_on: [b] }
`);
    const plan = scenarioTimeline(scenario, { seed: 1, timeScale: 1, view: VIEW });
    // a and b take the two slots; c starts when a ends (1 s); d waits for b (2 s)
    expect(plan.map((f) => [f.label, f.at_ms])).toEqual([
      ['a', 1000],
      ['c', 1500],
      ['b', 2000],
      ['d', 2100],
    ]);
    expect(plan.find((f) => f.label === 'c')!.target).toBe('node plan');
    expect(plan.find((f) => f.label === 'd')!.target).toBe('edge plan → tool');
  });

  it('survival: the same seed plans the same ticks; targets are drawn among the running agents', () => {
    const options = { seed: 9, kinds: ['kill_agent', 'slow_agent'] as const, durationMs: 2000, intervalMs: 500 };
    const a = survivalTimeline({ ...options, warmupMs: 100, view: VIEW });
    const b = survivalTimeline({ ...options, warmupMs: 100, view: VIEW });
    expect(a).toEqual(b);
    expect(a.map((f) => f.at_ms)).toEqual([100, 600, 1100, 1600]);
    for (const f of a) expect(['a-1', 'a-2', 'a-3', 'o-1']).toContain(f.target);
    const stopped = survivalTimeline({
      ...options,
      warmupMs: 0,
      view: { ...VIEW, agents: VIEW.agents.map((x) => (x.id === 'a-1' ? x : { ...x, status: 'stopped' as const })) },
    });
    // only a-1 runs: every draw lands on it, and the kinds and parameters do not move
    expect(stopped.map((f) => f.target)).toEqual(['a-1', 'a-1', 'a-1', 'a-1']);
    expect(stopped.map((f) => [f.type, f.params])).toEqual(a.map((f) => [f.type, f.params]));
  });
});
