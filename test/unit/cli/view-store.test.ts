import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/shared/clock.js';
import { createViewStore } from '../../../src/cli/view/view-store.js';
import type { RunEvent } from '../../../src/arena/report.js';

const snapshot = (at_ms: number, progress: number): RunEvent => ({
  type: 'snapshot',
  at_ms,
  agents: [{ id: 'agent-1', role: 'leader', status: 'running', restarts: 0 }],
  faults: [{ id: 'f1', kind: 'slow_agent', target: 'agent-2', started_at_ms: 5000, ends_at_ms: 7000 }],
  live: { availability: 99, recovery: 100, consistency: null, score: 99.6 },
  progress,
});

describe('view store', () => {
  it('publishes at most one snapshot per interval however many events arrive', async () => {
    const clock = new ManualClock();
    const store = createViewStore({ intervalMs: 100, setTimer: (ms, fn) => clock.setTimer(ms, fn) });
    let redraws = 0;
    store.subscribe(() => redraws++);
    for (let i = 0; i < 1000; i++) store.push(snapshot(i, i / 1000));
    expect(redraws).toBe(0);
    await clock.advance(100);
    expect(redraws).toBe(1);
    for (let t = 0; t < 10; t++) {
      for (let i = 0; i < 50; i++) store.push(snapshot(1000 + t * 100 + i, 0.5));
      await clock.advance(100);
    }
    expect(redraws).toBe(11);
    expect(store.getSnapshot().agents[0]!.role).toBe('leader');
  });

  it('computes fault time left on the run axis and publishes the end at once', async () => {
    const clock = new ManualClock();
    const store = createViewStore({ setTimer: (ms, fn) => clock.setTimer(ms, fn) });
    store.push(snapshot(1000, 0.1));
    store.push(snapshot(1500, 0.2));
    store.flush();
    expect(store.getSnapshot().faults[0]!.left_ms).toBe(1500);
    store.push({ type: 'run.finished', at_ms: 1600, status: 'passed' });
    expect(store.getSnapshot().status).toBe('passed');
    expect(store.getSnapshot().feed.at(-1)!.text).toBe('finished: passed');
  });

  it('publishes finished lines on their own, faster cadence than redraws, and both at once at the end', async () => {
    const clock = new ManualClock();
    const store = createViewStore({
      intervalMs: 1000,
      feedIntervalMs: 250,
      setTimer: (ms, fn) => clock.setTimer(ms, fn),
    });
    const calls: string[] = [];
    store.subscribe(() => calls.push(`frame ${store.getSnapshot().recoveries.recovered}`));
    store.subscribeFeed(() => calls.push(`lines ${store.getFeed().length}`));
    const recovery = (at_ms: number): RunEvent => ({
      type: 'recovery',
      at_ms,
      recovery: { action_id: 'a', type: 'kill_agent', target: 'agent-1', recovered: true, recovery_ms: 5 },
    });
    store.push(recovery(0));
    store.push(snapshot(10, 0.1)); // no new line: does not hasten the lines' publication
    await clock.advance(250);
    expect(calls).toEqual(['lines 1']);
    store.push(recovery(300));
    store.push(recovery(400));
    await clock.advance(250);
    expect(calls).toEqual(['lines 1', 'lines 3']);
    await clock.advance(500);
    expect(calls).toEqual(['lines 1', 'lines 3', 'frame 3']);
    store.push(snapshot(1100, 0.9));
    await clock.advance(250);
    expect(calls).toHaveLength(3); // a snapshot alone waits for the next redraw
    store.push({ type: 'run.finished', at_ms: 1200, status: 'passed' });
    expect(calls).toEqual(['lines 1', 'lines 3', 'frame 3', 'lines 4', 'frame 3']);
    expect(
      store
        .getFeed()
        .map((line) => line.text)
        .at(-1),
    ).toBe('finished: passed');
  });
});
