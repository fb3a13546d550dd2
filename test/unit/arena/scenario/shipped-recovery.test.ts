/**
 * The measured score tells strategies apart: a shipped scenario run with every
 * recovery mechanism off scores clearly lower than with the default strategy.
 */
import { fileURLToPath } from 'node:url';
import { describe, it } from 'vitest';
import { loadScenarioFile, runScenarioOnTarget } from '../../../../src/arena/scenario/index.js';
import { createEmbeddedTarget } from '../../../../src/targets/embedded/index.js';
import { DEFAULT_STRATEGY, RECOVERY_OFF_STRATEGY } from '../../../../src/runtime/strategy.js';

const file = (name: string) => fileURLToPath(new URL(`../../../../scenarios/${name}`, import.meta.url));

describe('recovery strategy vs measured score', () => {
  // independent runs on their own embedded targets, mostly waiting on scaled delays: the two files side by side
  it.concurrent.for(['leader-failover.yaml', 'memory-corruption.yaml'])(
    '%s: recovery off scores clearly lower than the default',
    { timeout: 15_000 },
    async (name, { expect }) => {
      const scenario = await loadScenarioFile(file(name));
      const run = (strategy: unknown) =>
        runScenarioOnTarget(createEmbeddedTarget({ strategy, workloadRate: 50 }), scenario, {
          timeScale: 0.3,
          recoveryDeadlineMs: 1500,
        });
      const on = await run(DEFAULT_STRATEGY);
      const off = await run(RECOVERY_OFF_STRATEGY);
      expect(
        on.status,
        JSON.stringify({
          gate: on.gate,
          checks: on.score.measurements.consistency,
          requests: on.score.measurements.requests,
        }),
      ).toBe('passed');
      expect(on.score.score).toBeGreaterThan(off.score.score! + 20);
      expect(off.score.measurements.recovery.recovered).toBeLessThan(off.score.measurements.recovery.disruptive_faults);
      expect(off.status).toBe('failed');
    },
  );
});
