/** The regression request rules, called as the HTTP API would: no CLI, no files, no runs. */
import { describe, expect, it } from 'vitest';
import { planRegress } from '../../../../src/arena/regression/request.js';
import { gateFailure, type RegressionVerdict } from '../../../../src/arena/regression/verdict.js';
import { analyzeScores } from '../../../../src/arena/regression/analysis.js';
import { UsageError } from '../../../../src/shared/errors.js';

const seed = () => 77;

describe('planRegress', () => {
  it('fills the defaults of a strategy comparison, with the injected seed and a 3 s survival workload', () => {
    const plan = planRegress({ baseline: 'a.yaml', candidate: 'b.yaml' }, seed);
    expect(plan).toMatchObject({
      kind: 'runs',
      arms: 'strategies',
      baseline: 'a.yaml',
      candidate: 'b.yaml',
      runs: 10,
      adaptive: false,
      parallelism: 4,
      seed: 77,
      alpha: 0.05,
      minimumEffect: 5,
    });
    expect(plan.kind === 'runs' && plan.workload).toEqual({ survival: { duration_ms: 3000, interval_ms: 500 } });
  });

  it('target files run one at a time unless told; workers take every run of a look at once', () => {
    expect(planRegress({ baselineTarget: 'old.yaml', candidateTarget: 'new.yaml' }, seed)).toMatchObject({
      arms: 'targets',
      parallelism: 1,
    });
    expect(planRegress({ baseline: 'a', candidate: 'b', workers: 'postgres://x/y' }, seed)).toMatchObject({
      parallelism: 10_000,
      workers: 'postgres://x/y',
    });
  });

  it('reads recorded scores without a seed or workload', () => {
    expect(
      planRegress({ baselineScores: ['b.json'], candidateScores: ['c.json'], paired: true, alpha: '0.01' }, seed),
    ).toEqual({
      kind: 'scores',
      alpha: 0.01,
      minimumEffect: 5,
      baselineFiles: ['b.json'],
      candidateFiles: ['c.json'],
      paired: true,
    });
  });

  it.each([
    [{ baseline: 'a', candidate: 'b', scenario: 's.yaml', survival: '3s' }, /--scenario or --survival, not both/],
    [{ baseline: 'a', candidate: 'b', scenario: 's.yaml', interval: '1s' }, /--interval is a survival setting/],
    [{ baseline: 'a', candidate: 'b', minRuns: '4' }, /--min-runs sets adaptive stopping: add --adaptive/],
    [{ baseline: 'a', candidate: 'b', adaptive: true, runs: '8' }, /--runs fixes the number of runs/],
    [
      { baseline: 'a', candidate: 'b', adaptive: true, minRuns: '10', maxRuns: '6' },
      /--max-runs \(6\) must be at least --min-runs \(10\)/,
    ],
    [
      { baseline: 'a', candidate: 'b', spending: 'haybittle', adaptive: true },
      /--spending: expected obrien-fleming or pocock/,
    ],
    [{ baseline: 'a', candidate: 'b', survival: '3 parsecs' }, /--survival: /],
    [{ baseline: 'a', candidate: 'b', weights: 'speed=2' }, /--weights: unknown scorer "speed"/],
    [{ baseline: 'a', baselineTarget: 't.yaml', candidateTarget: 'u.yaml' }, /not both/],
    [
      { baselineScores: ['b.json'], candidateScores: ['c.json'], runs: '5' },
      /--runs runs strategies; it does not apply to recorded scores/,
    ],
    [{ baseline: 'a', candidate: 'b', alpha: '0.7' }, /--alpha: expected a number between 0 and 0.5, got "0.7"/],
  ])('refuses %o with a usage error naming the option', (request, message) => {
    expect(() => planRegress(request, seed)).toThrow(UsageError);
    expect(() => planRegress(request, seed)).toThrow(message);
  });
});

describe('gateFailure', () => {
  const verdict = (baseline: number[], candidate: number[]): RegressionVerdict => ({
    mode: 'scores',
    baseline_files: [],
    candidate_files: [],
    ...analyzeScores(baseline, candidate),
  });
  const worse = verdict([80, 82, 81, 83, 79, 80], [60, 61, 59, 62, 60, 58]);
  const same = verdict([80, 82, 81, 83, 79, 80], [81, 80, 82, 79, 83, 80]);

  it('fails a significantly worse candidate always, a not-better one only when asked', () => {
    expect(gateFailure(worse, false)).toMatch(/^regression: the candidate is significantly worse/);
    expect(gateFailure(same, false)).toBeUndefined();
    expect(gateFailure(same, true)).toMatch(/^no improvement: the candidate is not significantly better/);
  });
});
