/**
 * `arena regress` on the embedded runtime under the shipped quiet tool-fault
 * scenario: careful agents (default strategy: tool results validated, a bad
 * one refused and the step retried elsewhere) against naive ones
 * (strategies/naive-tools.yaml: whatever a tool returns is used). The naive
 * candidate answers wrongly while the faults last: "candidate worse", exit 1.
 * Six pairs, not five: on a busy machine every score of an arm can come out the same (90 and 75), and
 * then the exact sign-flip test decides; with five pairs its smallest p is 2/32 > 0.05 ("cannot
 * decide"), with six 2/64.
 */
import { describe, expect, it } from 'vitest';
import { arena } from '../helpers/cli.js';

describe('arena regress: careful vs naive tool use under scenarios/poisoned-tools.yaml', () => {
  it('the naive candidate is worse: exit 1', async () => {
    const r = await arena([
      'regress',
      '--baseline',
      'strategies/default.yaml',
      '--candidate',
      'strategies/naive-tools.yaml',
      '--scenario',
      'scenarios/poisoned-tools.yaml',
      '--runs',
      '6',
      '--seed',
      '3',
      '--parallel',
      '4',
      '--json',
    ]);
    expect(r.exitCode, r.stderr).toBe(1);
    const v = JSON.parse(r.stdout).regression;
    expect(v.decision).toBe('candidate worse');
    expect(v.runs_used).toBe(6);
    expect(v.candidate.mean).toBeLessThan(v.baseline.mean);
    expect(r.stderr).toMatch(/significantly worse/);
  });
});
