/** The evolution request rules and result formats, called as the HTTP API would: no CLI, no runs. */
import { describe, expect, it } from 'vitest';
import { changedFields, evolvedStrategyFile, noiseWarning, planEvolve } from '../../../src/evolution/request.js';
import { parseStrategy, parseStrategyText, DEFAULT_STRATEGY } from '../../../src/runtime/strategy.js';
import { UsageError } from '../../../src/shared/errors.js';

const base = { generations: 3, population: 4, elitism: 1, duration: '1s', interval: '150ms' };

describe('planEvolve', () => {
  it('parses the durations and takes the injected seed when none is given', () => {
    expect(planEvolve(base, () => 9)).toEqual({ ...base, seed: 9, durationMs: 1000, intervalMs: 150 });
    expect(planEvolve({ ...base, seed: 4, out: 'best.yaml' }, () => 9)).toMatchObject({ seed: 4, out: 'best.yaml' });
  });

  it.each([
    [
      { ...base, target: 'mine.yaml' },
      /tunes the embedded runtime's recovery strategy only; it cannot change mine.yaml/,
    ],
    [{ ...base, elitism: 4 }, /--elitism \(4\) must be below --population \(4\)/],
    [{ ...base, duration: '100ms', interval: '150ms' }, /--duration must be at least one --interval/],
  ])('refuses %o with a usage error', (request, message) => {
    expect(() => planEvolve(request)).toThrow(UsageError);
    expect(() => planEvolve(request)).toThrow(message);
  });
});

describe('results', () => {
  const plan = planEvolve({ ...base, out: 'best.yaml' }, () => 42);
  const better = parseStrategy({
    ...DEFAULT_STRATEGY,
    election: { ...DEFAULT_STRATEGY.election, lease_ms: DEFAULT_STRATEGY.election.lease_ms + 50 },
  });

  it('writes a strategy file that reads back as the same strategy, headed by how to compare it', () => {
    const text = evolvedStrategyFile(plan, { strategy: better, fitness: 91.25 }, 80);
    expect(text).toMatch(
      /^# recovery strategy evolved by `arena evolve` \(seed 42, 3 generations × 4\)\n# measured survival score: 91\.3 \(starting strategy: 80\.0\)\n# compare: arena regress --baseline strategies\/default\.yaml --candidate best\.yaml\n/,
    );
    expect(parseStrategyText(text)).toEqual(better);
  });

  it('lists the fields the search changed', () => {
    expect(changedFields(DEFAULT_STRATEGY, better)).toEqual([
      `election.lease_ms: ${DEFAULT_STRATEGY.election.lease_ms} → ${DEFAULT_STRATEGY.election.lease_ms + 50}`,
    ]);
  });
});

describe('noise', () => {
  it('warns when each evaluation is too short or draws too few faults to tell strategies apart', () => {
    const short = planEvolve({ ...base, from: 'strategies/recovery-off.yaml', out: 'best.yaml' }, () => 1);
    expect(noiseWarning(short)).toBe(
      'each evaluation is one 1s survival run with 6 fault(s): its score is mostly noise, so the best strategy (even one that turns recovery off) may only have been lucky. Check it with arena regress --baseline strategies/recovery-off.yaml --candidate best.yaml --runs 10 before using it, or evolve with --duration 10s or more and at least 30 faults per run',
    );
    // the strategy file carries the warning with the recommendation
    const text = evolvedStrategyFile(short, { strategy: DEFAULT_STRATEGY, fitness: 90 }, 80);
    expect(text).toContain('# warning: each evaluation is one 1s survival run with 6 fault(s)');
    expect(parseStrategyText(text)).toEqual(DEFAULT_STRATEGY);
    expect(noiseWarning(planEvolve({ ...base, duration: '30s', interval: '200ms' }, () => 1))).toBeUndefined();
    expect(noiseWarning(planEvolve({ ...base, duration: '30s', interval: '2s' }, () => 1))).toMatch(/with 15 fault/);
  });
});
