import { describe, expect, it } from 'vitest';
import chalk from 'chalk';
import { renderScenarioTables, renderSurvivalTable } from '../../../src/cli/output/table.js';
import { sampleOutcome, sampleScenario, sampleSurvival } from './sample-reports.js';

chalk.level = 0;

describe('final tables', () => {
  it('scenario: per-action results, then score, grade, dimensions, MTTR and verification', () => {
    const text = renderScenarioTables([
      sampleScenario({ results: [sampleOutcome('first-kill', true, 'success', true), sampleOutcome('ghost', false, 'success', false)], verified: false, passed: 1, failed: 1, status: 'failed', gate: { min_score: 95, score: 91.5, passed: false } }),
    ]);
    expect(text).toMatch(/first-kill.*kill_leader|first-kill.*kill_agent/);
    expect(text).toMatch(/ghost.*failed: agent <agent-1> & not found.*NOT MET/);
    expect(text).toMatch(/leader-failover.*failed.*91\.5.*A.*97\.2.*88\.0.*87\.5.*250ms.*600ms.*1\/2 met/);
    expect(text).toContain('leader-failover: score 91.5 is 3.5 below the minimum 95');
    expect(text).toContain('failed checks: memory integrity (agent-2 <bad> & "quoted")');
  });

  it('survival: applied/not applied per kind, score and drift', () => {
    const text = renderSurvivalTable(sampleSurvival());
    expect(text).toContain('Survival (seed 7');
    expect(text).toMatch(/slow_agent.*2.*1/);
    expect(text).toMatch(/passed.*3 \(1 not applied\).*91\.5.*A/);
    expect(text).toMatch(/2ms.*2ms/);
  });
});
