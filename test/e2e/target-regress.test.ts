/**
 * Regress and evolve with target files (the Arena Target Protocol's other
 * consumers): regress compares two target files run by run; evolve refuses
 * them. Split from target-protocol.test.ts so the two run in parallel.
 */
import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT, arena } from '../helpers/cli.js';

describe('regress and evolve with target files', () => {
  it('regress compares two target files run by run: the release with recovery on scores far above the one without', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'arena-regress-'));
    writeFileSync(
      join(dir, 'off.yaml'),
      `kind: embedded\nname: release-1\nstrategy: ${join(REPO_ROOT, 'strategies/recovery-off.yaml')}\n`,
    );
    writeFileSync(join(dir, 'on.yaml'), 'kind: embedded\nname: release-2\n');
    const r = await arena(
      [
        'regress',
        '--baseline-target',
        join(dir, 'off.yaml'),
        '--candidate-target',
        join(dir, 'on.yaml'),
        '--survival',
        '1s',
        '--interval',
        '200ms',
        '--recovery-deadline',
        '1s',
        '--runs',
        '3',
        '--seed',
        '4',
        '--json',
      ],
      { timeout: 120_000 },
    );
    expect(r.exitCode, r.stderr).toBe(0);
    const { regression } = JSON.parse(r.stdout) as {
      regression: { baseline: { mean: number }; candidate: { mean: number }; baseline_name: string };
    };
    expect(regression.baseline_name).toContain('off.yaml');
    expect(regression.candidate.mean - regression.baseline.mean).toBeGreaterThan(20);
    const both = await arena([
      'regress',
      '--baseline-target',
      join(dir, 'off.yaml'),
      '--candidate',
      'strategies/default.yaml',
    ]);
    expect(both.exitCode).toBe(2);
  }, 150_000);

  it('evolve says it tunes the embedded runtime only', async () => {
    const r = await arena(['evolve', '--target', 'some.yaml']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/tunes the embedded runtime's recovery strategy only/);
    expect(r.stderr).toMatch(/--baseline-target/);
  });
});
