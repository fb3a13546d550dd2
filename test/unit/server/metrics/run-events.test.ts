/** A run's events as the §17 metrics (the `--serve` feed of scenario run and survival). */
import * as prom from 'prom-client';
import { describe, expect, it } from 'vitest';
import type { Result } from '../../../../src/arena/action.js';
import { createArenaMetrics } from '../../../../src/protocol/metrics.js';
import { countRunEvents } from '../../../../src/server/metrics/run-events.js';

const result = (type: 'kill_agent' | 'resume_agent', success: boolean): Result => ({
  success,
  action: { id: `a-${type}`, type, target_id: 'agent-2', created_at: '2026-01-01T00:00:00.000Z' },
  duration_ms: 1,
});

describe('countRunEvents', () => {
  it('counts faults by outcome, recoveries, the live then final score, and the verdict by kind', async () => {
    const m = createArenaMetrics(prom);
    const count = countRunEvents(m);
    count({ type: 'run.started', at_ms: 0, kind: 'survival', name: 's', seed: 1 });
    count({ type: 'action', at_ms: 10, label: 'k', result: result('kill_agent', true) });
    count({ type: 'action', at_ms: 20, label: 'r', result: result('resume_agent', false) });
    count({
      type: 'snapshot',
      at_ms: 30,
      agents: [],
      faults: [{ id: 'f', kind: 'kill_agent', target: 'agent-2', started_at_ms: 10 }],
      live: { availability: 90, recovery: 80, consistency: null, score: 70 },
      progress: 0.5,
    });
    count({
      type: 'recovery',
      at_ms: 40,
      recovery: { action_id: 'a-kill_agent', type: 'kill_agent', target: 'agent-2', recovered: true, recovery_ms: 300 },
    });
    let text = await m.text();
    expect(text).toContain('arena_faults_injected_total{type="kill_agent",target="agent-2",outcome="applied"} 1');
    expect(text).toContain('arena_faults_injected_total{type="resume_agent",target="agent-2",outcome="refused"} 1');
    expect(text).toContain('arena_faults_active{type="kill_agent",target="agent-2"} 1');
    expect(text).toContain('arena_score{dimension="score"} 70');
    expect(text).not.toContain('arena_score{dimension="consistency"}');
    expect(text).toContain('arena_fault_recovery_seconds_count{type="kill_agent"} 1');
    expect(text).toContain('arena_fault_recovery_seconds_bucket{le="0.5",type="kill_agent"} 1');
    count({
      type: 'run.finished',
      at_ms: 50,
      status: 'passed',
      score: { availability: 82.5, recovery: 82.5, consistency: 82.5, score: 82.5 },
    });
    text = await m.text();
    expect(text).toContain('arena_score{dimension="score"} 82.5');
    expect(text).toContain('arena_score{dimension="availability"} 90');
    expect(text).toContain('arena_runs_total{kind="survival",verdict="passed"} 1');
  });
});
