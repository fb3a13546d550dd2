import { describe, expect, it } from 'vitest';
import { RegressionTester } from '../../../../src/arena/regression/tester.js';
import type { ArmRunRequest, RegressionArena, RegressionConfig } from '../../../../src/arena/regression/types.js';
import { EnsembleScorer, dimensionScorer, resilienceScorer } from '../../../../src/arena/regression/scorer.js';
import type { ScoreReport } from '../../../../src/arena/report.js';
import { CancelledError, RuntimeError, UsageError } from '../../../../src/shared/errors.js';
import { createRandom } from '../../../../src/shared/random.js';

function report(score: number, dims: Partial<ScoreReport> = {}): ScoreReport {
  return {
    score,
    grade: 'B',
    availability: score,
    recovery: score,
    consistency: score,
    measurements: {
      requests: { total: 0, succeeded: 0, failed: 0 },
      recovery: {
        disruptive_faults: 0,
        recovered: 0,
        speed: 100,
        mttr_mean_ms: null,
        mttr_p50_ms: null,
        mttr_p95_ms: null,
        faults: [],
      },
      consistency: { total: 0, passed: 0, failed_checks: [] },
    },
    injections: { total: 0, succeeded: 0, failed: 0 },
    ...dims,
  };
}

/**
 * A synthetic arena for the tester's orchestration: the score depends on the
 * seed (both arms share it), the strategy's `bonus`, and per-run noise.
 */
function syntheticArena(options: { delayMs?: number; failOn?: (r: ArmRunRequest) => boolean } = {}) {
  const calls: ArmRunRequest[] = [];
  let running = 0;
  let maxRunning = 0;
  const arena: RegressionArena = {
    async runArm(request) {
      calls.push(request);
      running++;
      maxRunning = Math.max(maxRunning, running);
      try {
        await new Promise((r) => setTimeout(r, options.delayMs ?? 1));
        if (options.failOn?.(request)) throw new Error('target crashed');
        const noise = createRandom(request.seed ^ (request.arm === 'baseline' ? 0x1234 : 0x4321));
        const seedEffect = (request.seed % 1000) / 100;
        const bonus = (request.strategy as { bonus: number }).bonus;
        return report(70 + seedEffect + bonus + 2 * (noise.next() - 0.5));
      } finally {
        running--;
      }
    },
  };
  return { arena, calls, maxRunning: () => maxRunning };
}

const workload: RegressionConfig['workload'] = { survival: { duration_ms: 100, interval_ms: 10 } };

describe('RegressionTester', () => {
  it('pairs runs by seed, runs both arms in parallel up to the limit, and finds a better candidate', async () => {
    const fake = syntheticArena({ delayMs: 5 });
    const result = await new RegressionTester(fake.arena).run({
      baseline: { bonus: 0 },
      candidate: { bonus: 3 },
      runs: 8,
      parallelism: 3,
      seed: 42,
      workload,
    });
    expect(fake.calls).toHaveLength(16);
    for (let run = 0; run < 8; run++) {
      const seeds = fake.calls.filter((c) => c.run === run).map((c) => c.seed);
      expect(seeds).toHaveLength(2);
      expect(seeds[0]).toBe(seeds[1]);
    }
    expect(new Set(fake.calls.map((c) => c.seed)).size).toBe(8);
    expect(fake.maxRunning()).toBe(3);
    expect(result.test).toBe('paired');
    expect(result.decision).toBe('candidate better');
    expect(result.difference).toBeGreaterThan(2);
    expect(result.ci[0]).toBeGreaterThan(0);
    expect(result.runs_used).toBe(8);
    expect(result.pairs.map((p) => p.seed)).toEqual(
      Array.from({ length: 8 }, (_, run) => fake.calls.find((c) => c.run === run)!.seed),
    );
    expect(result.scorer).toBe('resilience');
  });

  it('replays the same seeds and verdict from the same config seed', async () => {
    const config: RegressionConfig = { baseline: { bonus: 0 }, candidate: { bonus: 0.2 }, runs: 5, seed: 9, workload };
    const a = await new RegressionTester(syntheticArena().arena).run(config);
    const b = await new RegressionTester(syntheticArena().arena).run(config);
    expect(a.pairs).toEqual(b.pairs);
    expect(a.p_value).toBe(b.p_value);
  });

  it('calls a worse candidate worse, and the same strategy not different, with a power statement', async () => {
    const worse = await new RegressionTester(syntheticArena().arena).run({
      baseline: { bonus: 0 },
      candidate: { bonus: -4 },
      runs: 6,
      workload,
    });
    expect(worse.decision).toBe('candidate worse');
    const same = await new RegressionTester(syntheticArena().arena).run({
      baseline: { bonus: 0 },
      candidate: { bonus: 0 },
      runs: 6,
      workload,
      minimumEffect: 2,
    });
    expect(same.decision).toBe('no significant difference');
    expect(same.power?.difference).toBe(2);
    expect(same.power?.power).toBeGreaterThan(0);
    expect(same.power?.minimum_detectable_difference).toBeGreaterThan(0);
  });

  it('adaptive: a large effect stops at an early look; an A/A test does not reject', async () => {
    const big = await new RegressionTester(syntheticArena().arena).run({
      baseline: { bonus: 0 },
      candidate: { bonus: 10 },
      adaptive: true,
      minAdaptiveRuns: 5,
      adaptiveBatchSize: 5,
      maxRuns: 40,
      workload,
    });
    expect(big.decision).toBe('candidate better');
    expect(big.sequential?.stopped).toBe('efficacy');
    expect(big.runs_used).toBeLessThan(40);
    expect(big.sequential?.looks.at(-1)?.decision).toBe('reject');
    expect(big.threshold).toBe(big.sequential?.looks.at(-1)?.nominal_p);

    const aa = await new RegressionTester(syntheticArena().arena).run({
      baseline: { bonus: 0 },
      candidate: { bonus: 0 },
      adaptive: true,
      maxRuns: 20,
      workload,
      seed: 3,
    });
    expect(aa.decision).toBe('no significant difference');
    expect(['futility', 'max_runs']).toContain(aa.sequential?.stopped);
  });

  it('adaptive: Pocock spending and the futility stop are what the config asks for, and futility is off by default', async () => {
    const base = {
      baseline: { bonus: 0 },
      candidate: { bonus: 0 },
      adaptive: true,
      minAdaptiveRuns: 4,
      adaptiveBatchSize: 4,
      maxRuns: 16,
      workload,
      seed: 5,
    } as const;
    const plain = await new RegressionTester(syntheticArena().arena).run(base);
    expect(plain.sequential?.spending).toBe('lan-demets-obrien-fleming');
    expect(plain.sequential?.futility_power).toBe(0);
    expect(plain.sequential?.looks.some((l) => l.decision === 'futility')).toBe(false);
    const pocock = await new RegressionTester(syntheticArena().arena).run({
      ...base,
      spending: 'pocock',
      futilityPower: 0.1,
    });
    expect(pocock.sequential?.spending).toBe('lan-demets-pocock');
    expect(pocock.sequential?.futility_power).toBe(0.1);
    // Pocock spends alpha evenly: its first boundary is far below O'Brien-Fleming's
    expect(pocock.sequential!.looks[0]!.z_boundary).toBeLessThan(plain.sequential!.looks[0]!.z_boundary - 1);
    await expect(
      new RegressionTester(syntheticArena().arena).run({ ...base, spending: 'fast' as never }),
    ).rejects.toThrow(/spending must be obrien-fleming or pocock/);
  });

  it('rejects a bad config with every problem named', async () => {
    const tester = new RegressionTester(syntheticArena().arena);
    await expect(
      tester.run({ baseline: {}, candidate: {}, runs: 1, confidence: 2, parallelism: 0, workload }),
    ).rejects.toThrow(UsageError);
    await expect(
      tester.run({ baseline: {}, candidate: {}, runs: 1, confidence: 2, parallelism: 0, workload }),
    ).rejects.toThrow(/runs must be an integer ≥ 2.*parallelism.*confidence is the confidence level 1 − alpha/);
    await expect(tester.run({ baseline: {}, candidate: {}, workload: {} as never })).rejects.toThrow(/workload/);
  });

  it('a failing run fails the test with a RuntimeError naming the arm, run and seed', async () => {
    const fake = syntheticArena({ failOn: (r) => r.arm === 'candidate' && r.run === 2 });
    await expect(
      new RegressionTester(fake.arena).run({ baseline: { bonus: 0 }, candidate: { bonus: 0 }, runs: 4, workload }),
    ).rejects.toThrow(RuntimeError);
    await expect(
      new RegressionTester(syntheticArena({ failOn: (r) => r.arm === 'candidate' && r.run === 2 }).arena).run({
        baseline: { bonus: 0 },
        candidate: { bonus: 0 },
        runs: 4,
        workload,
      }),
    ).rejects.toThrow(/candidate run 3 \(seed \d+\) failed: target crashed/);
  });

  it('stops on abort and gives no verdict', async () => {
    const controller = new AbortController();
    const fake = syntheticArena({ delayMs: 5 });
    const promise = new RegressionTester(fake.arena).run({
      baseline: { bonus: 0 },
      candidate: { bonus: 0 },
      runs: 50,
      workload,
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 40);
    const error = await promise.then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(error).toBeInstanceOf(CancelledError);
    expect(fake.calls.length).toBeLessThan(100);
    // the finished pairs travel with the error, flagged: partial figures, not a verdict
    const partial = (error as CancelledError).details as {
      partial: { interrupted: boolean; runs_used: number; pairs: unknown[] };
    };
    expect(partial.partial.interrupted).toBe(true);
    expect(partial.partial.runs_used).toBeGreaterThanOrEqual(2);
    expect(partial.partial.pairs).toHaveLength(partial.partial.runs_used);
    expect((error as Error).message).toMatch(/interrupted after \d+ complete pairs of runs; no verdict/);
  });
});

describe('scorers', () => {
  it('the default scorer is the measured resilience score', () => {
    expect(resilienceScorer.score(report(87.5))).toBe(87.5);
  });

  it('EnsembleScorer normalises weights and combines members', () => {
    const ensemble = new EnsembleScorer([
      { scorer: dimensionScorer('availability'), weight: 2 },
      { scorer: dimensionScorer('recovery'), weight: 1 },
      { scorer: dimensionScorer('consistency'), weight: 1 },
    ]);
    expect(ensemble.members.map((m) => m.weight)).toEqual([0.5, 0.25, 0.25]);
    expect(ensemble.score(report(0, { availability: 100, recovery: 60, consistency: 20 }))).toBeCloseTo(70, 12);
    expect(ensemble.name).toMatch(/availability×0.5/);
  });

  it('EnsembleScorer rejects negative, NaN, all-zero weights and an empty list', () => {
    const s = dimensionScorer('availability');
    expect(() => new EnsembleScorer([{ scorer: s, weight: -1 }])).toThrow(UsageError);
    expect(() => new EnsembleScorer([{ scorer: s, weight: -1 }])).toThrow(/members\[0\]\.weight must not be negative/);
    expect(() => new EnsembleScorer([{ scorer: s, weight: Number.NaN }])).toThrow(/finite number/);
    expect(
      () =>
        new EnsembleScorer([
          { scorer: s, weight: 0 },
          { scorer: s, weight: 0 },
        ]),
    ).toThrow(/all zero/);
    expect(() => new EnsembleScorer([])).toThrow(/at least one/);
  });
});
