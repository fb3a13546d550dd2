import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { arena } from '../helpers/cli.js';

// constant arms leave the t-test without a variance: an exact permutation test decides instead
describe('arena regress on constant recorded scores', () => {
  let dir: string;
  beforeEach(() => void (dir = mkdtempSync(join(tmpdir(), 'regress-constant-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  function regress(baseline: number[], candidate: number[], extra: string[] = []) {
    writeFileSync(join(dir, 'a.json'), JSON.stringify(baseline));
    writeFileSync(join(dir, 'b.json'), JSON.stringify(candidate));
    return arena(['regress', '--baseline-scores', 'a.json', '--candidate-scores', 'b.json', ...extra], { cwd: dir });
  }

  it('[100 ×4] against [62.5 ×4]: a significant regression by the exact test, exit 1, method in JSON and text', async () => {
    const r = await regress([100, 100, 100, 100], [62.5, 62.5, 62.5, 62.5], ['--json']);
    expect(r.exitCode).toBe(1);
    const v = JSON.parse(r.stdout).regression;
    expect(v.decision).toBe('candidate worse');
    expect(v.method).toBe('exact permutation (difference of means)');
    expect(v.exact_test.p).toBeCloseTo(2 / 70, 10);
    expect(v.p_value).toBeCloseTo(2 / 70, 10);
    expect(v.difference).toBe(-37.5);
    expect(r.stderr).toMatch(/significantly worse/);
    const text = await regress([100, 100, 100, 100], [62.5, 62.5, 62.5, 62.5]);
    expect(text.exitCode).toBe(1);
    expect(text.stdout).toMatch(/exact permutation \(difference of means\): p = 0\.0286 over 70 relabellings/);
    expect(text.stdout).toMatch(/candidate worse/);
  });

  it('[100 ×3] against [62.5 ×3]: too few runs for any test to be significant, and the gate fails (exit 1)', async () => {
    const r = await regress([100, 100, 100], [62.5, 62.5, 62.5], ['--json']);
    expect(r.exitCode).toBe(1);
    const v = JSON.parse(r.stdout).regression;
    expect(v.decision).toBe('cannot decide');
    expect(v.exact_test.p).toBeCloseTo(0.1, 10);
    expect(v.undecided_reason).toMatch(/at least 4 runs per arm can decide/);
    expect(r.stderr).toMatch(/possible regression: the candidate scored lower/);
  });

  it('equal constant arms: no difference, exit 0; a higher constant candidate with few runs passes', async () => {
    const same = await regress([100, 100, 100], [100, 100, 100], ['--json']);
    expect(same.exitCode).toBe(0);
    const v = JSON.parse(same.stdout).regression;
    expect(v.decision).toBe('no significant difference');
    expect(v.p_value).toBe(1);
    const up = await regress([62.5, 62.5, 62.5], [100, 100, 100], ['--json']);
    expect(up.exitCode).toBe(0);
    expect(JSON.parse(up.stdout).regression.decision).toBe('cannot decide');
  });
});
