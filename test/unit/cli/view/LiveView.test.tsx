import { describe, expect, it } from 'vitest';
import { render } from 'ink-testing-library';
import { ManualClock } from '../../../../src/shared/clock.js';
import { createViewStore } from '../../../../src/cli/view/view-store.js';
import { LiveView } from '../../../../src/cli/view/LiveView.js';
import { sampleAction } from '../sample-reports.js';

const tick = () => new Promise((r) => setTimeout(r, 20));

describe('LiveView', () => {
  it('shows agents, active faults with time left, the score dimensions, progress and the feed', async () => {
    const clock = new ManualClock();
    const store = createViewStore({ setTimer: (ms, fn) => clock.setTimer(ms, fn) });
    const { lastFrame, frames, unmount } = render(<LiveView store={store} />);
    store.push({ type: 'run.started', at_ms: 0, kind: 'scenario', name: 'leader-failover', seed: 42 });
    store.push({ type: 'phase', at_ms: 0, phase: 'chaos' });
    store.push({
      type: 'action',
      at_ms: 1000,
      label: 'first-kill',
      result: { success: true, action: sampleAction('kill_leader', ''), duration_ms: 1 },
    });
    store.push({
      type: 'snapshot',
      at_ms: 1200,
      agents: [
        { id: 'agent-1', role: 'worker', status: 'restarting', restarts: 1 },
        { id: 'agent-2', role: 'leader', status: 'running', restarts: 0 },
      ],
      faults: [{ id: 'f1', kind: 'slow_agent', target: 'agent-3', started_at_ms: 0, ends_at_ms: 3000 }],
      live: { availability: 97.5, recovery: 80, consistency: null, score: 87 },
      progress: 0.5,
    });
    store.push({
      type: 'recovery',
      at_ms: 1300,
      recovery: { action_id: 'a', type: 'kill_leader', target: 'agent-1', recovered: true, recovery_ms: 240 },
    });
    const before = frames.length;
    await clock.advance(200);
    await tick();
    const frame = lastFrame()!;
    expect(frames.length).toBeGreaterThan(before);
    expect(frame).toContain('scenario leader-failover');
    expect(frame).toContain('seed 42');
    expect(frame).toContain('chaos');
    expect(frame).toContain('50%');
    expect(frame).toMatch(/agent-1\s+worker\s+restarting\s+restarts 1/);
    expect(frame).toMatch(/agent-2\s+leader\s+running/);
    expect(frame).toMatch(/agent-3\s+slow_agent 2\.9s left/);
    expect(frame).toContain('availability  97.5');
    expect(frame).toContain('consistency   -');
    expect(frame).toContain('score 87.0');
    const all = frames.join('\n');
    expect(all).toContain('first-kill: kill_leader');
    expect(all).toContain('recovered from kill_leader on agent-1 in 240ms');
    unmount();
  });

  it('redraws no more than the store publishes', async () => {
    const clock = new ManualClock();
    const store = createViewStore({ setTimer: (ms, fn) => clock.setTimer(ms, fn) });
    const { frames, unmount } = render(<LiveView store={store} />);
    await tick();
    const start = frames.length;
    for (let i = 0; i < 500; i++) {
      store.push({
        type: 'snapshot',
        at_ms: i,
        agents: [],
        faults: [],
        live: { availability: 100, recovery: 100, consistency: 100, score: 100 },
        progress: i / 500,
      });
    }
    await tick();
    expect(frames.length).toBe(start);
    await clock.advance(200);
    await tick();
    expect(frames.length - start).toBeLessThanOrEqual(2);
    unmount();
  });
});

describe('LiveView, last frame', () => {
  it('shows the final score and how the run ended: "interrupted" on Ctrl-C, never "done"', async () => {
    const clock = new ManualClock();
    const store = createViewStore({ setTimer: (ms, fn) => clock.setTimer(ms, fn) });
    const { lastFrame, unmount } = render(<LiveView store={store} />);
    store.push({ type: 'run.started', at_ms: 0, kind: 'scenario', name: 'cut', seed: 1 });
    store.push({
      type: 'snapshot',
      at_ms: 500,
      agents: [],
      faults: [],
      live: { availability: 90, recovery: 100, consistency: null, score: 93.3 },
      progress: 0.4,
    });
    store.push({
      type: 'recovery',
      at_ms: 600,
      recovery: { action_id: 'a', type: 'network_partition', target: 'agent-1', recovered: false, interrupted: true },
    });
    store.push({ type: 'phase', at_ms: 600, phase: 'done' });
    store.push({
      type: 'run.finished',
      at_ms: 600,
      status: 'interrupted',
      score: { availability: 90, recovery: 100, consistency: 75, score: 87.5 },
    });
    await clock.advance(200);
    await tick();
    const frame = lastFrame()!;
    expect(frame).toContain('interrupted');
    expect(frame).not.toMatch(/\bdone\b/);
    expect(frame).toContain('score 87.5');
    expect(frame).toContain('consistency  75.0');
    expect(frame).toContain('0 missed, 1 interrupted');
    unmount();
  });
});

describe('LiveView: a run stopped early says why', () => {
  const finish = async (finished: Parameters<ReturnType<typeof createViewStore>['push']>[0]) => {
    const clock = new ManualClock();
    const store = createViewStore({ setTimer: (ms, fn) => clock.setTimer(ms, fn) });
    const { lastFrame, unmount, frames } = render(<LiveView store={store} />);
    store.push({ type: 'run.started', at_ms: 0, kind: 'survival', name: 'storm', seed: 7 });
    store.push(finished);
    await clock.advance(200);
    await tick();
    const all = frames.join('\n');
    const frame = lastFrame()!;
    unmount();
    return { frame, all };
  };

  it('an emergency stop: the status and who stopped it, not just the word', async () => {
    const { frame, all } = await finish({
      type: 'run.finished',
      at_ms: 900,
      status: 'stopped',
      error: 'stopped (arena stop from pid 4242) after 2 action(s): faults reverted, partial report',
    });
    expect(frame).toContain('stopped');
    expect(frame).toContain('arena stop from pid 4242');
    expect(all).toContain('finished: stopped');
  });

  it('a stop condition: which one tripped and what it measured', async () => {
    const { frame, all } = await finish({
      type: 'run.finished',
      at_ms: 1500,
      status: 'failed',
      stopped_by: {
        condition: 'availability_below 80% over 2000ms',
        kind: 'availability_below',
        value: 41.5,
        at_ms: 1400,
        reason: 'availability 41.5% < 80%',
      },
    });
    expect(frame).toContain('failed');
    expect(frame).toContain('stopped by availability_below 80% over 2000ms: availability 41.5% < 80%');
    expect(all).toContain('faults reverted');
  });
});

describe('LiveView width', () => {
  it('fits a 100-column terminal with the longest agent and fault rows (wider lines wrap and ink stacks frames)', async () => {
    const clock = new ManualClock();
    const store = createViewStore({ setTimer: (ms, fn) => clock.setTimer(ms, fn) });
    const { lastFrame, unmount } = render(<LiveView store={store} />); // ink-testing-library: 100 columns
    store.push({ type: 'run.started', at_ms: 0, kind: 'scenario', name: 'cascading-storm', seed: 1234 });
    store.push({
      type: 'snapshot',
      at_ms: 1200,
      agents: [{ id: 'orchestrator-1', role: 'orchestrator', status: 'restarting', restarts: 12 }],
      faults: [{ id: 'f1', kind: 'network_partition', target: 'orchestrator-2', started_at_ms: 0 }],
      live: { availability: 100, recovery: 100, consistency: null, score: 100 },
      progress: 0.3,
    });
    await clock.advance(200);
    await tick();
    const frame = lastFrame()!;
    expect(frame).toMatch(/orchestrator-1\s+orchestrator\s+restarting\s+restarts 12/);
    expect(frame).toMatch(/orchestrator-2\s+network_partition until reverted/);
    for (const line of frame.split('\n')) expect([...line].length, line).toBeLessThanOrEqual(100);
    unmount();
  });
});
