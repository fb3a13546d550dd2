import { describe, expect, it } from 'vitest';
import { scenarioJUnit, survivalJUnit } from '../../../src/cli/output/junit.js';
import { findAll, parseXml } from './xml-check.js';
import { sampleOutcome, sampleScenario, sampleScore, sampleSurvival } from './sample-reports.js';

describe('JUnit XML', () => {
  it('writes one testsuite per scenario, a testcase per action and one for the score gate', () => {
    const a = sampleScenario({ gate: { min_score: 80, score: 91.5, passed: true } });
    const b = sampleScenario({
      name: 'storm <&> "x"',
      status: 'failed',
      verified: false,
      passed: 1,
      failed: 1,
      results: [
        sampleOutcome('ok', true, 'success', true),
        sampleOutcome('bad', false, 'success', false),
        sampleOutcome('plain', true, 'none', null),
      ],
      gate: { min_score: 95, score: 91.5, passed: false },
    });
    const root = parseXml(scenarioJUnit([a, b]));
    expect(root.name).toBe('testsuites');
    const suites = findAll(root, 'testsuite');
    expect(suites).toHaveLength(2);
    expect(suites[0]!.attrs).toMatchObject({ tests: '3', failures: '0', errors: '0' });
    expect(suites[1]!.attrs).toMatchObject({ name: 'scenario: storm <&> "x"', tests: '4', failures: '2' });
    expect(root.attrs).toMatchObject({ tests: '7', failures: '2', errors: '0' });
    const failures = findAll(suites[1]!, 'failure').map((f) => f.attrs.message);
    expect(failures[0]).toContain('expected success, the action failed: agent <agent-1> & not found');
    expect(failures[1]).toBe('score 91.5 is 3.5 below the minimum 95');
    const props = Object.fromEntries(findAll(suites[0]!, 'property').map((p) => [p.attrs.name, p.attrs.value]));
    expect(props).toMatchObject({ seed: '42', grade: 'A', kind: 'scenario' });
  });

  it('marks an interrupted run as an error on the gate testcase', () => {
    const root = parseXml(scenarioJUnit([sampleScenario({ status: 'interrupted', error: 'interrupted by SIGINT' })]));
    const errors = findAll(root, 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0]!.attrs.message).toBe('interrupted by SIGINT');
    expect(root.attrs.errors).toBe('1');
  });

  it('writes a survival run as one suite: a testcase per tick (not applied = skipped) and the gate', () => {
    const root = parseXml(survivalJUnit(sampleSurvival({ gate: { min_score: 50, score: 91.5, passed: true } })));
    const suites = findAll(root, 'testsuite');
    expect(suites).toHaveLength(1);
    expect(suites[0]!.attrs).toMatchObject({ name: 'survival: seed 7', tests: '4', failures: '0', skipped: '1' });
    expect(findAll(root, 'testcase').map((t) => t.attrs.name)).toEqual([
      '#0 slow_agent agent-2',
      '#1 slow_agent agent-2',
      '#2 slow_agent agent-2',
      'score >= 50',
    ]);
  });

  it('a failed invariant is a failure naming it; one with gate: false is not', () => {
    const score = sampleScore();
    score.measurements.consistency.failed_checks = [
      { name: 'nothing-lost', detail: '3 jobs lost' },
      { name: 'soft', gate: false },
    ];
    const root = parseXml(scenarioJUnit([sampleScenario({ status: 'failed', score })]));
    const failures = findAll(root, 'failure').map((f) => f.attrs.message);
    expect(failures).toEqual(['invariant nothing-lost failed: 3 jobs lost']);
    expect(findAll(root, 'testcase').map((t) => t.attrs.name)).toContain('invariant nothing-lost');
  });

  it('an inconclusive run is a failure saying why, with no score property', () => {
    const score = sampleScore();
    Object.assign(score, { score: null, grade: null, availability: null, availability_why: 'no request' });
    delete score.interval;
    const root = parseXml(
      scenarioJUnit([sampleScenario({ status: 'inconclusive', inconclusive_why: 'no request', score })]),
    );
    expect(findAll(root, 'failure').map((f) => f.attrs.message)).toEqual(['inconclusive: no request']);
    const props = Object.fromEntries(findAll(root, 'property').map((p) => [p.attrs.name, p.attrs.value]));
    expect(props).not.toHaveProperty('score');
    expect(props).not.toHaveProperty('grade');
  });

  it('strips characters XML 1.0 cannot carry', () => {
    const r = sampleScenario({ error: 'bad \u0001 byte', status: 'error' });
    const xml = scenarioJUnit([r]);
    expect(xml).not.toContain('\u0001');
    expect(() => parseXml(xml)).not.toThrow();
  });

  it('the checker itself rejects broken XML', () => {
    expect(() => parseXml('<a><b></a>')).toThrow();
    expect(() => parseXml('<a x="1 & 2"/>')).toThrow();
    expect(() => parseXml('<a>1 < 2</a>')).toThrow();
  });
});
