import { stripVTControlCharacters } from 'node:util';
import { describe, expect, it } from 'vitest';
import chalk from 'chalk';
import { renderScenarioTables, renderSurvivalTable } from '../../../src/cli/output/table.js';
import { calculateScore } from '../../../src/arena/score.js';
import { sampleScenario, sampleSurvival } from './sample-reports.js';

chalk.level = 0;
const widest = (text: string) =>
  Math.max(
    ...text
      .split('\n')
      .filter((l) => /^[┌│└├]/.test(l))
      .map((l) => [...stripVTControlCharacters(l)].length),
  );

describe('final tables, hardened', () => {
  it('the survival summary fits 100 columns with four-digit counts and slow recoveries', () => {
    const r = sampleSurvival();
    Object.assign(r, {
      actions_run: 1234,
      actions_succeeded: 667,
      actions_failed: 567,
      status: 'interrupted',
      drift: { p50_ms: 1234, p99_ms: 12_345, max_ms: 1, mean_ms: 1 },
    });
    r.score.measurements.recovery.mttr_p50_ms = 1234;
    r.score.measurements.recovery.mttr_p95_ms = 12_345;
    const text = renderSurvivalTable(r);
    expect(widest(text)).toBeLessThanOrEqual(100);
  });

  it('an interrupted run says its gate was not judged, and marks no met expectation as failed', () => {
    const text = renderScenarioTables([
      sampleScenario({
        status: 'interrupted',
        verified: false,
        passed: 3,
        failed: 0,
        gate: { min_score: 80, score: 91.5, passed: true },
      }),
    ]);
    expect(text).not.toContain('✗');
    expect(text).not.toContain('meets the minimum');
    expect(text).toMatch(/3\/3 met/);
    expect(text).toContain(
      'the run did not finish, so the score 91.5 covers only part of it; the minimum 80 was not judged',
    );
  });

  it('an unmet expectation is still marked', () => {
    const text = renderScenarioTables([sampleScenario({ status: 'failed', verified: false, passed: 2, failed: 1 })]);
    expect(text).toMatch(/2\/3 met ✗/);
  });

  it('the 95% interval is printed, and a lower-bound gate says which value it compared', () => {
    const score = calculateScore({
      requests: { total: 200, succeeded: 196, failed: 4 },
      recovery: {
        disruptive_faults: 2,
        recovered: 2,
        speed: 0,
        mttr_mean_ms: 800,
        mttr_p50_ms: 700,
        mttr_p95_ms: 900,
        faults: [700, 900].map((t, i) => ({
          action_id: `${i}`,
          type: 'kill_agent',
          target: 'agent-1',
          recovered: true,
          recovery_ms: t,
        })),
      },
      consistency: { total: 4, passed: 4, failed_checks: [] },
    });
    const low = score.interval!.score.low;
    const text = renderScenarioTables([
      sampleScenario({
        score,
        status: 'failed',
        gate: { min_score: 95, score: score.score!, passed: false, on: 'lower', value: low },
      }),
    ]);
    expect(text).toContain(
      `95% interval: score ${low.toFixed(1)}–${score.interval!.score.high.toFixed(1)}, availability`,
    );
    expect(text).toContain(`score ${score.score} (95% lower bound ${low}) is`);
  });
});
