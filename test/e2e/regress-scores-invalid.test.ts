import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { arena } from '../helpers/cli.js';

const F = 'test/fixtures/regress';

describe('arena regress with invalid recorded scores or flags', () => {
  it('bad input exits 2 with a clear message and nothing on stdout', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'regress-'));
    const notJson = join(dir, 'bad.json');
    writeFileSync(notJson, '{ nope');
    const strings = join(dir, 'strings.json');
    writeFileSync(strings, '[80, "ninety", 70]');
    const single = join(dir, 'one.json');
    writeFileSync(single, '[80]');
    const cases: Array<[string[], RegExp]> = [
      [['--baseline-scores', notJson, '--candidate-scores', `${F}/better-scores.json`], /not valid JSON/],
      [
        ['--baseline-scores', strings, '--candidate-scores', `${F}/better-scores.json`],
        /strings\.json\[1\]: not a score: "ninety"/,
      ],
      [
        ['--baseline-scores', join(dir, 'missing.json'), '--candidate-scores', `${F}/better-scores.json`],
        /cannot read the baseline scores file/,
      ],
      [['--baseline-scores', single, '--candidate-scores', `${F}/better-scores.json`], /at least 2 scores/],
      [['--baseline-scores', `${F}/baseline-scores.json`], /go together/],
      [
        [
          '--baseline-scores',
          `${F}/baseline-scores.json`,
          '--candidate-scores',
          `${F}/better-scores.json`,
          '--alpha',
          '2',
        ],
        /--alpha: expected a number between 0 and 0.5/,
      ],
      [
        [
          '--baseline-scores',
          `${F}/baseline-scores.json`,
          '--candidate-scores',
          `${F}/candidate-report.json`,
          '--paired',
        ],
        /--paired needs as many/,
      ],
      [
        [
          '--baseline',
          'strategies/default.yaml',
          '--baseline-scores',
          `${F}/baseline-scores.json`,
          '--candidate-scores',
          `${F}/better-scores.json`,
        ],
        /not both/,
      ],
      [[], /give --baseline and --candidate/],
    ];
    for (const [args, message] of cases) {
      const r = await arena(['regress', ...args, '--json']);
      expect(r.exitCode, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stdout).toBe('');
      expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
    }
  });
});
