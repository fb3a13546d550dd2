/** The server's run log: which actions each run executed and how it ended, bounded. */
import { describe, expect, it } from 'vitest';
import type { Result } from '../../../src/arena/action.js';
import { createRunLog } from '../../../src/bootstrap/run-log.js';

const action = (id: string): Result => ({
  success: true,
  action: { id, type: 'kill_agent', target_id: 'agent-2', created_at: '2026-01-01T00:00:00.000Z' },
  duration_ms: 1,
});

describe('createRunLog', () => {
  it("keeps each run's action ids and its end; actions outside a run belong to none; the oldest runs go first", () => {
    const log = createRunLog({ limit: 2, now: () => new Date('2026-01-01T00:00:00.000Z') });
    log.listener({ type: 'action', at_ms: 0, label: 'x', result: action('outside') });
    for (const name of ['a', 'b', 'c']) {
      log.listener({ type: 'run.started', at_ms: 0, kind: 'scenario', name, seed: 1 });
      log.listener({ type: 'action', at_ms: 1, label: 'k', result: action(`${name}-1`) });
      log.listener({
        type: 'run.finished',
        at_ms: 2,
        status: 'passed',
        score: { availability: 90, recovery: 90, consistency: 90, score: 90 },
      });
      log.listener({ type: 'action', at_ms: 3, label: 'late', result: action(`${name}-after`) });
    }
    expect(log.list()).toEqual([
      expect.objectContaining({ id: 2, name: 'b', action_ids: ['b-1'], status: 'passed', score: 90 }),
      expect.objectContaining({ id: 3, name: 'c', action_ids: ['c-1'], finished_at: '2026-01-01T00:00:00.000Z' }),
    ]);
  });

  it('keeps why a run ended early: the stop condition, or the emergency stop named in its error', () => {
    const log = createRunLog();
    const stoppedBy = {
      condition: 'probe_failures agent-1 x3',
      kind: 'probe_failures' as const,
      value: 3,
      at_ms: 900,
      reason: '3 failed probes in a row',
    };
    log.listener({ type: 'run.started', at_ms: 0, kind: 'scenario', name: 'a', seed: 1 });
    log.listener({ type: 'run.finished', at_ms: 1000, status: 'failed', stopped_by: stoppedBy });
    log.listener({ type: 'run.started', at_ms: 0, kind: 'survival', name: 'b', seed: 2 });
    const error = 'stopped (POST /arena/stop) after 1 action(s): faults reverted, partial report';
    log.listener({ type: 'run.finished', at_ms: 500, status: 'stopped', error });
    expect(log.list()).toEqual([
      expect.objectContaining({ name: 'a', status: 'failed', stopped_by: stoppedBy }),
      expect.objectContaining({ name: 'b', status: 'stopped', error }),
    ]);
  });
});
