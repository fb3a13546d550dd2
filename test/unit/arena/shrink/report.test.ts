import { describe, expect, it } from 'vitest';
import { matchesSignature, scheduleToScenario, shrinkInputFromReport } from '../../../../src/arena/shrink/index.js';
import type { ScenarioReport } from '../../../../src/arena/report.js';

function outcome(label: string, type: string, planned: number, met: boolean | null, error?: string) {
  return {
    label,
    expectation: met === null ? 'none' : 'success',
    met,
    planned_at_ms: planned,
    at_ms: planned,
    result: {
      success: error === undefined,
      duration_ms: 0,
      action: { type, target_id: 'agent-1' },
      ...(error ? { error } : {}),
    },
  };
}

const failing = {
  schema_version: 1,
  scenarios: [
    {
      name: 'demo',
      status: 'failed',
      seed: 9,
      results: [
        outcome('a', 'kill_agent', 1100, null),
        outcome('b', 'slow_agent', 1300, false, 'stopped'),
        outcome('c', 'kill_agent', 1500, null, 'skipped: depends on a'),
      ],
      score: { measurements: { consistency: { failed_checks: [{ name: 'memory_integrity' }] } } },
    },
  ],
};

describe('shrinkInputFromReport', () => {
  it('reads the faults after the warmup, skips actions that never ran, and names every failure', () => {
    const input = shrinkInputFromReport(failing, 'r.json', 1000);
    expect(input.seed).toBe(9);
    expect(input.faults.map((f) => [f.label, f.at_ms, f.expect_success ?? false])).toEqual([
      ['a', 100, false],
      ['b', 300, true],
    ]);
    expect(input.signature.failures).toEqual(['expectation:b', 'invariant:memory_integrity']);
  });

  it('refuses a passing report, a failure it cannot recognise, and a document that is no report', () => {
    const passing = { schema_version: 1, scenarios: [{ ...failing.scenarios[0], status: 'passed' }] };
    expect(() => shrinkInputFromReport(passing)).toThrow(/no failed scenario/);
    const errored = {
      schema_version: 1,
      scenarios: [{ ...failing.scenarios[0], results: [outcome('a', 'kill_agent', 0, null)], score: {} }],
    };
    expect(() => shrinkInputFromReport(errored)).toThrow(/without a failed expectation, invariant or gate/);
    expect(() => shrinkInputFromReport([1])).toThrow(/not a report/);
    expect(() => shrinkInputFromReport({ schema_version: 2 })).toThrow(/schema_version/);
    expect(() => shrinkInputFromReport({ schema_version: 1, survival: { status: 'passed' } })).toThrow(/did not fail/);
  });
});

describe('the failure signature', () => {
  const signature = { failures: ['expectation:b'], families: ['slow_agent'] };
  const report = (failures: Partial<ScenarioReport>) =>
    ({ status: 'failed', results: [], score: undefined, ...failures }) as unknown as ScenarioReport;

  it('counts a run only when it fails the same way, not some other way', () => {
    expect(matchesSignature(report({ results: [outcome('b', 'slow_agent', 0, false)] as never }), signature)).toBe(
      true,
    );
    expect(matchesSignature(report({ results: [outcome('a', 'slow_agent', 0, false)] as never }), signature)).toBe(
      false,
    );
    expect(
      matchesSignature(report({ gate: { min_score: 80, score: 10, passed: false } }), {
        failures: ['gate:min_score'],
        families: [],
      }),
    ).toBe(true);
  });

  it('a schedule becomes a valid scenario that keeps the seed, the expectation and the gate', () => {
    const scenario = scheduleToScenario(
      {
        faults: [
          { id: 1, label: 'b', type: 'slow_agent', target_id: 'agent-1', at_ms: 250, expect_success: true },
          { id: 0, label: 'a', type: 'kill_agent', target_id: 'agent-1', at_ms: 100 },
        ],
        cooldown_ms: 400,
      },
      { name: 'x', seed: 3, signature: { failures: ['expectation:b', 'gate:min_score'], families: [] }, min_score: 80 },
    );
    expect(scenario.config.seed).toBe(3);
    expect(scenario.expect.min_score).toBe(80);
    expect(scenario.actions.map((a) => [a.label, a.delay_ms, a.expect_success ?? false])).toEqual([
      ['a', 100, false],
      ['b', 150, true],
    ]);
    expect(scenario.config.cooldown_ms).toBe(400);
  });
});
