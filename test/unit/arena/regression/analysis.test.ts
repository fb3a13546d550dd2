import { describe, expect, it } from 'vitest';
import { analyzeScores } from '../../../../src/arena/regression/analysis.js';
import { extractScores } from '../../../../src/arena/regression/score-files.js';
import { UsageError } from '../../../../src/shared/errors.js';

describe('analyzeScores', () => {
  const baseline = [80.1, 82.4, 79.9, 81.0, 83.3, 80.6];
  const candidate = [82.0, 84.1, 81.7, 83.5, 84.9, 82.2];

  it('decides on the paired test when paired, on Welch otherwise, and reports both', () => {
    const paired = analyzeScores(baseline, candidate, { paired: true });
    expect(paired.test).toBe('paired');
    expect(paired.decision).toBe('candidate better');
    expect(paired.paired?.df).toBe(5);
    expect(paired.effect_size.paired_dz).toBeGreaterThan(2);
    const welch = analyzeScores(baseline, candidate);
    expect(welch.test).toBe('welch');
    expect(welch.paired).toBeUndefined();
    // pairing removes the shared per-seed variation: the paired p-value is far smaller here
    expect(paired.p_value).toBeLessThan(welch.p_value);
  });

  it('at a sequential threshold the interval is the repeated CI at that level', () => {
    const a = analyzeScores(baseline, candidate, { paired: true, threshold: 0.001 });
    expect(a.ci_level).toBeCloseTo(0.999, 12);
    const b = analyzeScores(baseline, candidate, { paired: true });
    expect(a.ci[1] - a.ci[0]).toBeGreaterThan(b.ci[1] - b.ci[0]);
  });

  it('says how much power it had when it found nothing', () => {
    const a = analyzeScores([80, 85, 78, 90], [82, 79, 88, 84], { minimumEffect: 4 });
    expect(a.decision).toBe('no significant difference');
    expect(a.power?.difference).toBe(4);
    expect(a.power?.power).toBeGreaterThan(0.05);
    expect(a.power?.power).toBeLessThan(0.5);
    expect(a.power?.minimum_detectable_difference).toBeGreaterThan(4);
  });
});

describe('extractScores', () => {
  it('reads arrays of numbers, report documents and regression documents', () => {
    expect(extractScores([1, 2.5])).toEqual([1, 2.5]);
    expect(extractScores([{ score: 70 }, { score: { score: 71 } }])).toEqual([70, 71]);
    expect(
      extractScores({ schema_version: 1, scenarios: [{ score: { score: 88 } }, { score: { score: 90 } }] }),
    ).toEqual([88, 90]);
    expect(extractScores({ schema_version: 1, survival: { score: { score: 77 } } })).toEqual([77]);
  });

  it('names the bad entry', () => {
    expect(() => extractScores([1, null], 'a.json')).toThrow(UsageError);
    expect(() => extractScores([1, null], 'a.json')).toThrow(/a\.json\[1\]: not a score: null/);
    expect(() => extractScores({ scenarios: [{}] }, 'r.json')).toThrow(/r\.json\.scenarios\[0\]: has no numeric score/);
    expect(() => extractScores([], 'e.json')).toThrow(/holds no scores/);
    expect(() => extractScores('80', 's.json')).toThrow(/unrecognised content/);
  });
});
