/**
 * `arena regress` on the real embedded runtime: recovery on vs recovery off is
 * a large, real difference and must be found in a handful of runs; a strategy
 * against itself must not be. Timings are short (500 ms survival, 1 s recovery
 * deadline) so each run takes about a second.
 */
import { describe, expect, it } from 'vitest';
import { arena } from '../helpers/cli.js';

const FAST = [
  '--survival',
  '500ms',
  '--interval',
  '100ms',
  '--recovery-deadline',
  '1s',
  '--cooldown',
  '300ms',
  '--parallel',
  '4',
];

function parse(stdout: string) {
  return JSON.parse(stdout) as { schema_version: number; regression: Record<string, any> };
}

describe('arena regress with strategies on the embedded runtime', () => {
  it('recovery on (candidate) vs recovery off (baseline): candidate better in 4 paired runs', async () => {
    const r = await arena([
      'regress',
      '--baseline',
      'strategies/recovery-off.yaml',
      '--candidate',
      'strategies/default.yaml',
      ...FAST,
      '--runs',
      '4',
      '--seed',
      '11',
      '--json',
    ]);
    expect(r.exitCode, r.stderr).toBe(0);
    const v = parse(r.stdout).regression;
    expect(v.mode).toBe('strategies');
    expect(v.decision).toBe('candidate better');
    expect(v.test).toBe('paired');
    expect(v.runs_used).toBe(4);
    expect(v.pairs).toHaveLength(4);
    expect(v.difference).toBeGreaterThan(15);
    expect(v.ci[0]).toBeGreaterThan(0);
    expect(v.p_value).toBeLessThan(0.05);
    // progress goes to stderr, one line per run
    expect(r.stderr.match(/run +\d+ \(seed \d+\)/g)?.length).toBe(8);
  });

  it('the same comparison reversed is a regression: exit 1', async () => {
    const r = await arena([
      'regress',
      '--baseline',
      'strategies/default.yaml',
      '--candidate',
      'strategies/recovery-off.yaml',
      ...FAST,
      '--runs',
      '4',
      '--seed',
      '12',
    ]);
    expect(r.exitCode, r.stderr).toBe(1);
    expect(r.stdout).toContain('candidate worse');
    expect(r.stderr).toMatch(/significantly worse/);
  });

  it('a strategy against itself: no significant difference', async () => {
    // adaptive keeps the false-positive rate at alpha; alpha 0.01 keeps this test from flaking
    const r = await arena([
      'regress',
      '--baseline',
      'strategies/default.yaml',
      '--candidate',
      'strategies/default.yaml',
      ...FAST,
      '--runs',
      '4',
      '--alpha',
      '0.01',
      '--seed',
      '14',
      '--json',
    ]);
    expect(r.exitCode, r.stderr).toBe(0);
    const v = parse(r.stdout).regression;
    // the same strategy on the same seeds: no difference, from the t-test when the scores vary (with its
    // power), from the exact test when every score is the same (p = 1, no power without a variance); or
    // "cannot decide" saying why
    expect(['no significant difference', 'cannot decide']).toContain(v.decision);
    if (v.decision === 'cannot decide') expect(v.undecided_reason).toMatch(/constant|variation/);
    else if (v.exact_test) expect(v.exact_test.p).toBe(1);
    else expect(v.power).toBeDefined();
  });
});
