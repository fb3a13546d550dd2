/** Ctrl-C during `arena regress`: runs are interrupted (faults reverted), the finished pairs are shown as partial, exit 130. */
import { describe, expect, it } from 'vitest';
import { arena } from '../helpers/cli.js';

describe('arena regress interrupted', () => {
  it('SIGINT: exit 130, partial figures marked as no verdict', async () => {
    const child = arena([
      'regress',
      '--baseline',
      'strategies/default.yaml',
      '--candidate',
      'strategies/default.yaml',
      '--survival',
      '400ms',
      '--interval',
      '100ms',
      '--recovery-deadline',
      '1s',
      '--cooldown',
      '200ms',
      '--runs',
      '20',
      '--parallel',
      '2',
      '--seed',
      '3',
      '--json',
    ]);
    let finished = 0;
    let sent = false;
    child.stderr!.on('data', (chunk: Buffer) => {
      finished += (chunk.toString().match(/ run +\d+ \(seed/g) ?? []).length;
      if (finished >= 4 && !sent) {
        sent = true;
        child.kill('SIGINT');
      }
    });
    const r = await child;
    expect(sent).toBe(true);
    expect(r.exitCode).toBe(130);
    expect(r.stderr).toMatch(/interrupted after \d+ complete pairs of runs; no verdict/);
    const doc = JSON.parse(r.stdout);
    expect(doc.regression.interrupted).toBe(true);
    expect(doc.regression.runs_used).toBeGreaterThanOrEqual(2);
    expect(doc.regression.runs_used).toBeLessThan(20);
  });
});
