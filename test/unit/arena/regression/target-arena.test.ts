/** The library path on the real embedded runtime: RegressionTester + createTargetArena, as a program embedding chaos-arena would. */
import { describe, expect, it } from 'vitest';
import { RegressionTester, createTargetArena, dimensionScorer, type ArmRunRequest } from '../../../../src/index.js';
import { embeddedTargetFactory } from '../../../../src/targets/embedded/index.js';
import { DEFAULT_STRATEGY, RECOVERY_OFF_STRATEGY } from '../../../../src/runtime/strategy.js';
import type { TargetFactory } from '../../../../src/arena/providers.js';

const workload = { survival: { duration_ms: 300, interval_ms: 100, recovery_deadline_ms: 800, cooldown_ms: 200 } };

describe('createTargetArena on the embedded target', () => {
  it('gives each run a fresh target built with its arm strategy and the pair seed, and measures it', async () => {
    const built: Array<{ strategy: unknown; seed?: number }> = [];
    const factory: TargetFactory = (options) => {
      built.push({ strategy: options?.strategy, seed: options?.seed });
      return embeddedTargetFactory(options);
    };
    const arena = createTargetArena({ targetFactory: factory });
    const seen: ArmRunRequest[] = [];
    const result = await new RegressionTester(
      { runArm: (r) => (seen.push(r), arena.runArm(r)) },
      dimensionScorer('recovery'),
    ).run({
      baseline: RECOVERY_OFF_STRATEGY,
      candidate: DEFAULT_STRATEGY,
      runs: 5,
      parallelism: 10,
      seed: 21,
      workload,
    });
    expect(built).toHaveLength(10);
    expect(built.filter((b) => b.strategy === RECOVERY_OFF_STRATEGY)).toHaveLength(5);
    expect(new Set(built.map((b) => b.seed)).size).toBe(5);
    expect(result.scorer).toBe('recovery');
    // recovery off leaves faults unrecovered: its measured recovery dimension is never higher on a seed
    for (const pair of result.pairs) expect(pair.candidate).toBeGreaterThanOrEqual(pair.baseline);
    expect(result.decision).toBe('candidate better');
    expect(seen.every((r) => r.workload === workload)).toBe(true);
  });

  it('turns an interrupted run into a CancelledError', async () => {
    const arena = createTargetArena({ targetFactory: embeddedTargetFactory });
    const controller = new AbortController();
    const run = arena.runArm({
      arm: 'baseline',
      run: 0,
      seed: 1,
      strategy: DEFAULT_STRATEGY,
      workload: { survival: { duration_ms: 5000, interval_ms: 100 } },
      signal: controller.signal,
    });
    setTimeout(() => controller.abort('test'), 150);
    await expect(run).rejects.toMatchObject({ exitCode: 130 });
  });
});
