import { describe, expect, it } from 'vitest';
import { render } from 'ink-testing-library';
import { ManualClock } from '../../../../src/shared/clock.js';
import { createViewStore } from '../../../../src/cli/view/view-store.js';
import { LiveView } from '../../../../src/cli/view/LiveView.js';
import type { ActiveFault, AgentInfo } from '../../../../src/arena/providers.js';
import type { LiveScore } from '../../../../src/arena/report.js';
import chalk from 'chalk';
import { formatEvent as formatLine } from '../../../../src/cli/output/plain-reporter.js';

chalk.level = 0;
const tick = () => new Promise((r) => setTimeout(r, 20));
const AGENTS: AgentInfo[] = [
  { id: 'agent-1', role: 'leader', status: 'running', restarts: 0 },
  { id: 'agent-2', role: 'worker', status: 'running', restarts: 0 },
  { id: 'orchestrator-1', role: 'orchestrator', status: 'restarting', restarts: 12 },
];

async function frameFor(
  faults: ActiveFault[],
  live: LiveScore = { availability: 99, recovery: 100, consistency: null, score: 99.4 },
) {
  const clock = new ManualClock();
  const store = createViewStore({ setTimer: (ms, fn) => clock.setTimer(ms, fn) });
  const view = render(<LiveView store={store} />);
  store.push({ type: 'run.started', at_ms: 0, kind: 'scenario', name: 'cascading-storm', seed: 1 });
  store.push({ type: 'snapshot', at_ms: 100, agents: AGENTS, faults, live, progress: 0.4 });
  await clock.advance(200);
  await tick();
  const frame = view.lastFrame()!;
  view.unmount();
  return frame;
}

const widths = (frame: string) => new Set(frame.split('\n').map((l) => [...l].length));

describe('live view layout', () => {
  it('keeps one width from frame to frame, with no faults, one, or many with long names', async () => {
    const none = await frameFor([]);
    const one = await frameFor([
      { id: 'f1', kind: 'slow_agent', target: 'agent-2', started_at_ms: 0, ends_at_ms: 5000 },
    ]);
    const many = await frameFor([
      { id: 'f1', kind: 'network_partition', target: 'orchestrator-1', started_at_ms: 0 },
      { id: 'f2', kind: 'tool_timeout', target: 'orchestrator-1', started_at_ms: 0, ends_at_ms: 9000 },
      { id: 'f3', kind: 'remove_node', target: 'recall', started_at_ms: 0 },
    ]);
    const all = new Set([...widths(none), ...widths(one), ...widths(many)]);
    expect([...all]).toEqual([96]);
  });

  it('shows each fault on the row of the agent it acts on; other targets get their own row', async () => {
    const frame = await frameFor([
      { id: 'f1', kind: 'slow_agent', target: 'agent-2', started_at_ms: 0, ends_at_ms: 5000 },
      { id: 'f2', kind: 'remove_node', target: 'recall', started_at_ms: 0 },
    ]);
    const lines = frame.split('\n');
    expect(lines.find((l) => l.includes('slow_agent'))).toMatch(
      /agent-2\s+worker\s+running\s+restarts 0\s+slow_agent \d\.\ds left/,
    );
    expect(lines.find((l) => l.includes('agent-1'))).not.toMatch(/slow_agent|remove_node/);
    expect(lines.find((l) => l.includes('remove_node'))).toMatch(/│ recall\s+remove_node until reverted/);
  });

  it('a fault still recovering shows recovery as pending, and the live score says why it is not final', async () => {
    const frame = await frameFor([], {
      availability: 99,
      recovery: 100,
      consistency: null,
      score: 99.4,
      pending_recoveries: 1,
      settled_recoveries: 0,
    });
    expect(frame).toContain('recovery pending (1 recovering)');
    expect(frame).toContain('live score: availability and recovery so far; consistency is checked after the run');
    const line = formatLine({
      type: 'snapshot',
      at_ms: 500,
      agents: [],
      faults: [],
      live: {
        availability: 98,
        recovery: 100,
        consistency: null,
        score: 98.8,
        pending_recoveries: 1,
        settled_recoveries: 0,
      },
      progress: 0.5,
    });
    expect(line).toContain(
      'live score 98.8 (availability 98.0, recovery pending (1 recovering), consistency checked after the run)',
    );
    expect(line).not.toContain('recovery 0.0');
  });
});
