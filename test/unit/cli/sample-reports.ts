import type { Action, Result } from '../../../src/arena/action.js';
import type { ActionOutcome, ScenarioReport, ScoreReport, SurvivalReport } from '../../../src/arena/report.js';

export function sampleScore(score = 91.5): ScoreReport {
  return {
    score,
    grade: score >= 95 ? 'A+' : score >= 90 ? 'A' : score >= 80 ? 'B' : 'F',
    availability: 97.2,
    recovery: 88,
    consistency: 87.5,
    measurements: {
      requests: { total: 100, succeeded: 97, failed: 3 },
      recovery: {
        disruptive_faults: 2,
        recovered: 2,
        speed: 80,
        mttr_mean_ms: 300,
        mttr_p50_ms: 250,
        mttr_p95_ms: 600,
        faults: [],
      },
      consistency: {
        total: 8,
        passed: 7,
        failed_checks: [{ name: 'memory integrity', detail: 'agent-2 <bad> & "quoted"', gate: false }],
      },
    },
    injections: { total: 2, succeeded: 2, failed: 0 },
  };
}

export function sampleAction(type: Action['type'], target_id: string): Action {
  return { id: `id-${type}-${target_id}`, type, target_id, created_at: '2026-01-01T00:00:00.000Z' };
}

export function sampleOutcome(
  label: string,
  success: boolean,
  expectation: ActionOutcome['expectation'],
  met: boolean | null,
): ActionOutcome {
  const result: Result = {
    success,
    action: sampleAction('kill_agent', 'agent-1'),
    duration_ms: 3,
    ...(success ? {} : { error: 'agent <agent-1> & not found' }),
  };
  return { label, result, expectation, met, planned_at_ms: 10, at_ms: 12 };
}

export function sampleScenario(overrides: Partial<ScenarioReport> = {}): ScenarioReport {
  return {
    name: 'leader-failover',
    seed: 42,
    status: 'passed',
    verified: true,
    passed: 2,
    failed: 0,
    results: [sampleOutcome('first-kill', true, 'success', true), sampleOutcome('second', true, 'none', null)],
    score: sampleScore(),
    started_at: '2026-01-01T00:00:00.000Z',
    duration_ms: 1234,
    strategy: {},
    ...overrides,
  };
}

export function sampleSurvival(overrides: Partial<SurvivalReport> = {}): SurvivalReport {
  const tick = (index: number, success: boolean) => ({
    index,
    planned_at: index * 100,
    at: index * 100 + 2,
    drift_ms: 2,
    action: sampleAction('slow_agent', 'agent-2'),
    result: {
      success,
      action: sampleAction('slow_agent', 'agent-2'),
      duration_ms: 1,
      ...(success ? {} : { error: 'agent-2 is stopped' }),
    },
  });
  return {
    seed: 7,
    status: 'passed',
    started_at: '2026-01-01T00:00:00.000Z',
    duration_ms: 1000,
    elapsed_ms: 1003,
    interval_ms: 100,
    action_kinds: ['slow_agent'],
    actions_run: 3,
    actions_succeeded: 2,
    actions_failed: 1,
    score: sampleScore(),
    drift: { p50_ms: 2, p99_ms: 2, max_ms: 2, mean_ms: 2 },
    timeline: [tick(0, true), tick(1, false), tick(2, true)],
    strategy: {},
    ...overrides,
  };
}
