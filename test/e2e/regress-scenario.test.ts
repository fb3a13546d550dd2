/** `arena regress --scenario`: every run of both arms faces the same (tiny, ms-timed) scenario with the pair's seed. */
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { arena } from '../helpers/cli.js';

const SCENARIO = ['--scenario', 'test/fixtures/regress/tiny-scenario.yaml', '--parallel', '4'];

describe('arena regress --scenario', () => {
  it('recovery on vs off on a scenario: candidate better, JUnit passes', async () => {
    const junit = join(mkdtempSync(join(tmpdir(), 'regress-')), 'regress.xml');
    const r = await arena([
      'regress',
      '--baseline',
      'strategies/recovery-off.yaml',
      '--candidate',
      'strategies/default.yaml',
      ...SCENARIO,
      '--runs',
      '5',
      '--seed',
      '5',
      '--json',
      '--junit',
      junit,
    ]);
    expect(r.exitCode, r.stderr).toBe(0);
    const v = JSON.parse(r.stdout).regression;
    // five pairs, not three: scores take few distinct values here, and three pairs with one and the same
    // difference (say baseline 23 23 23, candidate 86.6 86.6 86.6) leave the paired test no variation: "cannot decide"
    expect(v.decision).toBe('candidate better');
    expect(v.runs_used).toBe(5);
    // the measured score, not injection success: recovery off leaves the faults unrecovered
    expect(v.baseline.mean).toBeLessThan(60);
    expect(v.candidate.mean).toBeGreaterThan(70);
    const xml = readFileSync(junit, 'utf8');
    expect(xml).toContain('name="decision" value="candidate better"');
    expect(xml).not.toContain('<failure');
  });

  it('a strategy against itself on a scenario: no significant difference', async () => {
    const r = await arena([
      'regress',
      '--baseline',
      'strategies/default.yaml',
      '--candidate',
      'strategies/default.yaml',
      ...SCENARIO,
      '--runs',
      '3',
      '--alpha',
      '0.01',
      '--seed',
      '6',
      '--weights',
      'availability=2,recovery=1',
      '--json',
    ]);
    expect(r.exitCode, r.stderr).toBe(0);
    const v = JSON.parse(r.stdout).regression;
    // identical scores in every pair (same strategy, same seed) leave nothing to test: "cannot decide" says so
    expect(['no significant difference', 'cannot decide']).toContain(v.decision);
    if (v.decision === 'cannot decide') expect(v.undecided_reason).toMatch(/constant|variation/);
    expect(v.scorer).toBe('ensemble(availability×0.667, recovery×0.333)');
  });

  it('an invalid scenario file exits 2 and names the problem', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'regress-')), 'bad.yaml');
    writeFileSync(file, 'name: bad\nactions:\n  - action: { type: explode_everything }\n');
    const r = await arena([
      'regress',
      '--baseline',
      'strategies/default.yaml',
      '--candidate',
      'strategies/default.yaml',
      '--scenario',
      file,
      '--runs',
      '2',
    ]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/explode_everything/);
    expect(r.stdout).toBe('');
  });
});
