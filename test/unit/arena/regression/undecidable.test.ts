import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { analyzeScores } from '../../../../src/arena/regression/analysis.js';
import { extractScores } from '../../../../src/arena/regression/score-files.js';
import { obrienFlemingSpending } from '../../../../src/arena/regression/sequential.js';
import { normalSf, normalQuantile } from '../../../../src/arena/regression/stats/distributions.js';
import { RegressionTester } from '../../../../src/arena/regression/tester.js';
import { runWith } from '../../../../src/cli/main.js';
import { withNonFiniteExplained } from '../../../../src/cli/output/json.js';

describe('a test that cannot decide says so', () => {
  it('two constant arms: no p = 0, no "candidate better", a reason', () => {
    const a = analyzeScores([5, 5], [5.1, 5.1]);
    expect(a.decision).toBe('cannot decide');
    expect(a.undecided_reason).toMatch(/both arms are constant \(baseline 5, candidate 5\.1\)/);
    expect(a.p_value).toBeNaN();
    expect(a.power).toBeUndefined();
    expect(a.power_unavailable).toMatch(/no variation/);
  });

  it('constant paired differences cannot decide either', () => {
    const a = analyzeScores([70, 80, 90], [70.5, 80.5, 90.5], { paired: true });
    expect(a.decision).toBe('cannot decide');
    expect(a.undecided_reason).toMatch(/every paired difference is the same \(0\.5\)/);
  });

  it('"constant" does not hang on binary rounding', () => {
    // 0.1 + 0.2 is 0.30000000000000004: the same score, not variation
    expect(analyzeScores([0.1 + 0.2, 0.3], [0.4, 0.4]).decision).toBe('cannot decide');
    expect(analyzeScores([1e6 + 1e-7, 1e6], [1e6 + 1, 1e6 + 1]).decision).toBe('cannot decide');
    // one constant arm is fine: Welch takes the spread from the other
    expect(analyzeScores([5, 5, 5, 5], [6, 7, 6.5, 7.2]).decision).toBe('candidate better');
  });
});

describe('regress --json and score files', () => {
  let dir: string;
  beforeEach(() => void (dir = mkdtempSync(join(tmpdir(), 'regress-undecided-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  async function cli(args: string[]) {
    let out = '';
    let err = '';
    const code = await runWith(args, {
      stdout: { write: (s: string) => (out += s) },
      stderr: { write: (s: string) => (err += s) },
      env: {},
      cwd: dir,
      signal: new AbortController().signal,
    });
    return { code, out, err };
  }

  it('cannot decide exits 0, and no null in the document lacks a field saying why', async () => {
    writeFileSync(join(dir, 'a.json'), '[5, 5]');
    writeFileSync(join(dir, 'b.json'), '[5.1, 5.1]');
    const r = await cli(['regress', '--baseline-scores', 'a.json', '--candidate-scores', 'b.json', '--json']);
    expect(r.code).toBe(0);
    const v = JSON.parse(r.out).regression;
    expect(v.decision).toBe('cannot decide');
    expect(v.undecided_reason).toMatch(/constant/);
    const unexplained: string[] = [];
    const walk = (node: unknown, path: string, parent?: Record<string, unknown>, key?: string) => {
      if (node === null) {
        if (!parent || !(`${key}_why` in parent)) unexplained.push(path);
      } else if (Array.isArray(node))
        node.forEach((x, i) =>
          x === null
            ? parent && `${key}_why` in parent
              ? undefined
              : unexplained.push(`${path}[${i}]`)
            : walk(x, `${path}[${i}]`),
        );
      else if (typeof node === 'object')
        for (const [k, x] of Object.entries(node as Record<string, unknown>))
          walk(x, `${path}.${k}`, node as Record<string, unknown>, k);
    };
    walk(v, 'regression');
    expect(unexplained).toEqual([]);
    expect(v.p_value).toBeNull();
    expect(v.p_value_why).toMatch(/NaN/);
  });

  it('the table says it cannot decide and why', async () => {
    writeFileSync(join(dir, 'a.json'), '[5, 5]');
    writeFileSync(join(dir, 'b.json'), '[5.1, 5.1]');
    const r = await cli(['regress', '--baseline-scores', 'a.json', '--candidate-scores', 'b.json']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/cannot decide: both arms are constant/);
    expect(r.out).toMatch(/power\s*│ unavailable/);
    expect(r.out).not.toMatch(/candidate better/);
  });

  it('withNonFiniteExplained marks every non-finite number', () => {
    expect(withNonFiniteExplained({ t: Infinity, ci: [1, -Infinity], nested: { d: NaN } })).toEqual({
      t: null,
      t_why: 'Infinity',
      ci: [1, null],
      ci_why: { 1: '-Infinity' },
      nested: { d: null, d_why: 'NaN: not defined for these data' },
    });
  });

  it('[1e400, 2] names the overflow, not "null"', () => {
    expect(() => extractScores(JSON.parse('[1e400, 2]'), 'a.json')).toThrow(
      /a\.json\[0\]: not a score: Infinity \(not a finite number: a literal such as 1e400 overflows a double\)/,
    );
  });
});

describe('names that say what they hold', () => {
  it('RegressionConfig takes alpha; confidence is 1 − alpha and a value that looks like an alpha is refused', async () => {
    const tester = new RegressionTester({ runArm: async () => ({}) as never } as never);
    const workload = { kind: 'survival', duration: '1s', interval: '100ms' } as never;
    await expect(tester.run({ baseline: {}, candidate: {}, confidence: 0.05, workload })).rejects.toThrow(
      /confidence is the confidence level 1 − alpha .*give alpha: 0\.05/,
    );
    await expect(tester.run({ baseline: {}, candidate: {}, alpha: 0.05, confidence: 0.95, workload })).rejects.toThrow(
      /alpha or confidence, not both/,
    );
  });

  it('obrienFlemingSpending does what its docstring says: 4·Φ̄(z₁₋α/₄/√t)', () => {
    for (const t of [0.2, 0.5, 0.8])
      expect(obrienFlemingSpending(t, 0.05)).toBeCloseTo(4 * normalSf(normalQuantile(1 - 0.05 / 4) / Math.sqrt(t)), 12);
    expect(obrienFlemingSpending(1, 0.05)).toBe(0.05);
  });
});
