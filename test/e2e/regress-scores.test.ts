import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { arena } from '../helpers/cli.js';

const F = 'test/fixtures/regress';

function parse(stdout: string) {
  return JSON.parse(stdout) as { schema_version: number; regression: Record<string, any> };
}

describe('arena regress --baseline-scores/--candidate-scores', () => {
  it('a better candidate: exit 0, table with both arms, interval, p-value, effect size and decision', async () => {
    const r = await arena([
      'regress',
      '--baseline-scores',
      `${F}/baseline-scores.json`,
      '--candidate-scores',
      `${F}/better-scores.json`,
    ]);
    expect(r.exitCode).toBe(0);
    for (const text of [
      'baseline',
      'candidate',
      'mean',
      'sd',
      '95% CI',
      'p-value',
      "Hedges' g",
      'Mann–Whitney U',
      'candidate better',
      'runs used',
    ]) {
      expect(r.stdout).toContain(text);
    }
  });

  it('--json prints one document on stdout with the verdict', async () => {
    const r = await arena([
      'regress',
      '--baseline-scores',
      `${F}/baseline-scores.json`,
      '--candidate-scores',
      `${F}/better-scores.json`,
      '--json',
    ]);
    expect(r.exitCode).toBe(0);
    const doc = parse(r.stdout);
    expect(doc.schema_version).toBe(1);
    const v = doc.regression;
    expect(v.decision).toBe('candidate better');
    expect(v.test).toBe('welch');
    expect(v.baseline.n).toBe(10);
    expect(v.difference).toBeCloseTo(7.32, 6);
    expect(v.ci[0]).toBeGreaterThan(0);
    expect(v.p_value).toBeLessThan(1e-6);
    expect(v.welch.df).toBeGreaterThan(10);
    expect(v.effect_size.magnitude).toBe('large');
    expect(v.mann_whitney.p).toBeLessThan(0.001);
    expect(v.power).toBeUndefined();
  });

  it('a worse candidate is a regression: exit 1, said on stderr, JSON still on stdout', async () => {
    const r = await arena([
      'regress',
      '--baseline-scores',
      `${F}/baseline-scores.json`,
      '--candidate-scores',
      `${F}/worse-scores.json`,
      '--json',
    ]);
    expect(r.exitCode).toBe(1);
    expect(parse(r.stdout).regression.decision).toBe('candidate worse');
    expect(r.stderr).toMatch(/significantly worse/);
  });

  it('the same distribution: no significant difference, exit 0, with the power to detect a difference', async () => {
    const r = await arena([
      'regress',
      '--baseline-scores',
      `${F}/baseline-scores.json`,
      '--candidate-scores',
      `${F}/same-scores.json`,
      '--json',
      '--min-effect',
      '3',
    ]);
    expect(r.exitCode).toBe(0);
    const v = parse(r.stdout).regression;
    expect(v.decision).toBe('no significant difference');
    expect(v.p_value).toBeGreaterThan(0.05);
    expect(v.power.difference).toBe(3);
    expect(v.power.power).toBeGreaterThan(0.5);
    expect(v.power.minimum_detectable_difference).toBeGreaterThan(0);
    const table = await arena([
      'regress',
      '--baseline-scores',
      `${F}/baseline-scores.json`,
      '--candidate-scores',
      `${F}/same-scores.json`,
    ]);
    expect(table.stdout).toMatch(/no significant difference/);
    expect(table.stdout).toMatch(/to detect a true difference of ±5 points/);
  });

  it('--fail-on-no-improvement turns "not better" into exit 1 and a JUnit failure', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'regress-'));
    const junit = join(dir, 'out.xml');
    const r = await arena([
      'regress',
      '--baseline-scores',
      `${F}/baseline-scores.json`,
      '--candidate-scores',
      `${F}/same-scores.json`,
      '--fail-on-no-improvement',
      '--junit',
      junit,
    ]);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/not significantly better/);
    const xml = readFileSync(junit, 'utf8');
    expect(xml).toContain('<failure');
    expect(xml).toContain('name="decision" value="no significant difference"');
    const ok = await arena([
      'regress',
      '--baseline-scores',
      `${F}/baseline-scores.json`,
      '--candidate-scores',
      `${F}/better-scores.json`,
      '--fail-on-no-improvement',
    ]);
    expect(ok.exitCode).toBe(0);
  });

  it('reads reports written by --report and pairs scores with --paired', async () => {
    const r = await arena([
      'regress',
      '--baseline-scores',
      `${F}/baseline-scores.json`,
      '--candidate-scores',
      `${F}/candidate-report.json`,
      '--json',
    ]);
    expect(r.exitCode).toBe(0);
    const v = parse(r.stdout).regression;
    expect(v.candidate.n).toBe(6);
    expect(v.candidate.scores[0]).toBe(88.1);
    const paired = await arena([
      'regress',
      '--baseline-scores',
      `${F}/baseline-scores.json`,
      '--candidate-scores',
      `${F}/better-scores.json`,
      '--paired',
      '--json',
    ]);
    expect(parse(paired.stdout).regression.test).toBe('paired');
    expect(parse(paired.stdout).regression.paired.df).toBe(9);
  });
});
