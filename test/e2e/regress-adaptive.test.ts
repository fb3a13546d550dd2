/** `arena regress` on the real embedded runtime: adaptive stopping, and invalid strategies/flags. */
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

describe('arena regress --adaptive and invalid input', () => {
  it('adaptive: stops before the maximum once the effect is clear', async () => {
    const r = await arena([
      'regress',
      '--baseline',
      'strategies/recovery-off.yaml',
      '--candidate',
      'strategies/default.yaml',
      ...FAST,
      '--adaptive',
      '--min-runs',
      '3',
      '--batch',
      '2',
      '--max-runs',
      '11',
      '--seed',
      '13',
      '--json',
    ]);
    expect(r.exitCode, r.stderr).toBe(0);
    const v = parse(r.stdout).regression;
    expect(v.decision).toBe('candidate better');
    expect(v.sequential.stopped).toBe('efficacy');
    expect(v.runs_used).toBeLessThan(11);
    expect(v.p_value).toBeLessThanOrEqual(v.threshold);
    expect(r.stderr).toMatch(/look 1 at 3 runs per arm/);
  });

  it('invalid strategy files and flags exit 2 with the problem named', async () => {
    const broken = await arena([
      'regress',
      '--baseline',
      'test/fixtures/regress/broken-strategy.yaml',
      '--candidate',
      'strategies/default.yaml',
      ...FAST,
      '--runs',
      '2',
    ]);
    expect(broken.exitCode).toBe(2);
    expect(broken.stderr).toMatch(/broken-strategy\.yaml/);
    expect(broken.stderr).toMatch(/warp_drive: unknown section/);
    expect(broken.stdout).toBe('');
    const missing = await arena(['regress', '--baseline', 'nope.yaml', '--candidate', 'strategies/default.yaml']);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toMatch(/strategy file .*nope\.yaml. does not exist/);
    for (const [args, message] of [
      [['--runs', '1'], /--runs: expected an integer ≥ 2/],
      [['--parallel', 'x'], /--parallel: expected an integer/],
      [['--survival', 'soon'], /--survival: invalid duration/],
      [['--adaptive', '--min-runs', '8', '--max-runs', '4'], /--max-runs \(4\) must be at least --min-runs \(8\)/],
      [['--max-runs', '9'], /--max-runs sets adaptive stopping: add --adaptive/],
      [['--spending', 'pocock'], /--spending sets adaptive stopping: add --adaptive/],
      [['--adaptive', '--spending', 'fast'], /--spending: expected obrien-fleming or pocock, got "fast"/],
      [['--adaptive', '--futility', '1'], /--futility: expected a conditional power in \[0, 1\), got "1"/],
      [['--scenario', 'x.yaml', '--survival', '1s'], /--scenario or --survival, not both/],
      [['--weights', 'availability=-1'], /--weights: .*must not be negative/],
      [['--weights', 'speed=1'], /--weights: unknown scorer "speed"/],
    ] as Array<[string[], RegExp]>) {
      const r = await arena([
        'regress',
        '--baseline',
        'strategies/default.yaml',
        '--candidate',
        'strategies/default.yaml',
        ...args,
      ]);
      expect(r.exitCode, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(message);
    }
    // thirteen CLI starts one after another: 20 s ran out on a starved machine
  }, 60_000);
});
