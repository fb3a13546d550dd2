import { stripVTControlCharacters } from 'node:util';
import { describe, expect, it } from 'vitest';
import chalk from 'chalk';
import { renderScenarioTables, renderSurvivalTable } from '../../../src/cli/output/table.js';
import { sampleOutcome, sampleScenario, sampleSurvival } from './sample-reports.js';

chalk.level = 0;

describe('final tables', () => {
  it('scenario: per-action results, then score, grade, dimensions, MTTR and verification', () => {
    const text = renderScenarioTables([
      sampleScenario({
        results: [sampleOutcome('first-kill', true, 'success', true), sampleOutcome('ghost', false, 'success', false)],
        verified: false,
        passed: 1,
        failed: 1,
        status: 'failed',
        gate: { min_score: 95, score: 91.5, passed: false },
      }),
    ]);
    expect(text).toMatch(/first-kill.*kill_leader|first-kill.*kill_agent/);
    expect(text).toMatch(/ghost.*failed.*NOT MET/);
    expect(text).toContain('ghost failed: agent <agent-1> & not found');
    expect(text).toMatch(/leader-failover.*failed.*91\.5.*A.*97\.2.*88\.0.*87\.5.*250ms.*600ms.*1\/2 met/);
    expect(text).toContain('leader-failover: score 91.5 is 3.5 below the minimum 95');
    expect(text).toContain('failed checks: memory integrity (agent-2 <bad> & "quoted")');
  });

  it('summary tables fit a 100-column terminal', () => {
    const scenario = renderScenarioTables([sampleScenario({ name: 'orchestrator-failover' } as never)]);
    // table rows only: footnotes are prose and wrap like prose
    const widest = (text: string) =>
      Math.max(
        ...text
          .split('\n')
          .filter((l) => /^[┌│└├]/.test(l))
          .map((l) => [...stripVTControlCharacters(l)].length),
      );
    expect(widest(scenario)).toBeLessThanOrEqual(100);
  });

  it('scenario: the action table fits a 100-column terminal even with a long failure reason, given in full below it', () => {
    const long = sampleOutcome('resume-running', false, 'failure', true);
    long.result.action = { ...long.result.action, type: 'network_partition', target_id: 'orchestrator-1' };
    long.result.error = 'resume: agent orchestrator-1 is running, not paused (nothing to resume on this agent)';
    const text = renderScenarioTables([sampleScenario({ results: [long] })]);
    const lines = text.split('\n');
    const table = lines.slice(0, lines.findIndex((l) => l.startsWith('└')) + 1).filter((l) => /^[┌│└]/.test(l));
    expect(table.length).toBe(4);
    for (const line of table) expect([...line].length, line).toBeLessThanOrEqual(100);
    expect(text).toContain(
      'resume-running failed: resume: agent orchestrator-1 is running, not paused (nothing to resume on this agent)',
    );
  });

  it('survival: applied/not applied per kind, score and drift', () => {
    const text = renderSurvivalTable(sampleSurvival());
    expect(text).toContain('Survival (seed 7');
    expect(text).toMatch(/slow_agent.*2.*1/);
    expect(text).toMatch(/passed\s*│ 3\s*│ 91\.5 A/);
    expect(text).toMatch(/2ms.*2ms/);
  });
});
