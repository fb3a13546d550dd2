import { describe, expect, it } from 'vitest';
import chalk from 'chalk';
import { createPlainReporter } from '../../../src/cli/output/plain-reporter.js';
import { sampleAction } from './sample-reports.js';

chalk.level = 0;

describe('plain reporter', () => {
  it('prints one line per event and folds snapshots into quarter-progress lines', () => {
    const lines: string[] = [];
    const report = createPlainReporter({ write: (s: string) => lines.push(s) });
    report({ type: 'run.started', at_ms: 0, kind: 'scenario', name: 'demo', seed: 3 });
    report({
      type: 'action',
      at_ms: 12,
      label: 'kill',
      result: {
        success: true,
        action: sampleAction('kill_leader', ''),
        duration_ms: 2,
        metadata: { killed_leader_id: 'agent-1' },
      },
    });
    report({
      type: 'action',
      at_ms: 20,
      label: 'slow',
      result: {
        success: false,
        action: sampleAction('slow_agent', 'agent-9'),
        duration_ms: 1,
        error: 'agent agent-9 not found',
      },
    });
    for (let p = 0; p <= 10; p++)
      report({
        type: 'snapshot',
        at_ms: 30 + p,
        agents: [],
        faults: [],
        live: { availability: 100, recovery: 100, consistency: null, score: 100 },
        progress: p / 10,
      });
    report({
      type: 'recovery',
      at_ms: 50,
      recovery: { action_id: 'x', type: 'kill_leader', target: 'agent-1', recovered: true, recovery_ms: 120 },
    });
    report({
      type: 'fault.reverted',
      at_ms: 60,
      fault: { id: 'f', kind: 'slow_agent', target: 'agent-2', started_at_ms: 0 },
    });
    report({ type: 'run.finished', at_ms: 70, status: 'passed' });
    const text = lines.join('');
    expect(lines.every((l) => l.endsWith('\n'))).toBe(true);
    expect(text).toContain('scenario demo started (seed 3)');
    expect(text).toContain('action kill kill_leader → ok killed_leader_id=agent-1');
    expect(text).toContain('action slow slow_agent agent-9 → failed: agent agent-9 not found');
    expect(text).toContain('recovered from kill_leader on agent-1 in 120ms');
    expect(text).toContain('reverted slow_agent on agent-2');
    expect(text).toContain('finished: passed');
    expect(lines.filter((l) => l.includes('progress'))).toHaveLength(4);
  });
});
