import { describe, expect, it } from 'vitest';
import { runWith } from '../../../src/cli/main.js';

async function cli(args: string[]) {
  let out = '';
  let err = '';
  const code = await runWith(args, {
    stdout: { write: (s: string) => (out += s) },
    stderr: { write: (s: string) => (err += s) },
    env: { CI: '1' },
    cwd: process.cwd(),
    signal: new AbortController().signal,
  });
  return { code, out, err };
}

describe('--gate lower on scenario run', () => {
  it('gates on the lower bound of the score interval and records which value it compared', async () => {
    const r = await cli([
      'scenario',
      'run',
      'test/fixtures/regress/tiny-scenario.yaml',
      '--seed',
      '3',
      '--min-score',
      '1',
      '--gate',
      'lower',
      '--json',
    ]);
    const report = JSON.parse(r.out).scenarios[0];
    expect(report.score.interval.score.low).toBeLessThanOrEqual(report.score.score);
    expect(report.gate).toEqual({
      min_score: 1,
      score: report.score.score,
      passed: report.score.interval.score.low >= 1,
      on: 'lower',
      value: report.score.interval.score.low,
    });
    expect(report.reverted_faults).toEqual(expect.any(Array));
  }, 20_000);

  it('an unknown --gate value is a usage error', async () => {
    const r = await cli(['scenario', 'run', 'test/fixtures/regress/tiny-scenario.yaml', '--gate', 'upper']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/--gate <what>.*Allowed choices are score, lower/);
  });
});
