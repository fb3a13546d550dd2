/**
 * The embedded target under the arena's scenario runner: with the default
 * strategy every fault is healed and the measured score is high; with
 * recovery off the same scenario scores visibly lower on every dimension that
 * recovery protects.
 */
import { describe, expect, it } from 'vitest';
import { loadScenario, runScenarioOnTarget } from '../../../src/arena/scenario/index.js';
import { createEmbeddedTarget } from '../../../src/targets/embedded/index.js';
import { RECOVERY_OFF_STRATEGY } from '../../../src/runtime/strategy.js';

const SCENARIO = `
name: every-fault
config: { warmup: 200ms, cooldown: 800ms, seed: 7, recovery_deadline: 2s }
actions:
  - { label: kill, delay: 0ms, action: { type: kill_agent, target_id: agent-2 } }
  - { label: leader, delay: 100ms, action: { type: kill_leader } }
  - { label: orchestrator, delay: 100ms, action: { type: kill_orchestrator } }
  - { label: corrupt, delay: 100ms, action: { type: memory_corrupt, target_id: agent-3 } }
  - { label: mcp, delay: 100ms, action: { type: mcp_disconnect, target_id: agent-1 } }
  - { label: llm, delay: 100ms, action: { type: llm_failure, target_id: agent-3, metadata: { error_type: overloaded } } }
  - { label: node, delay: 100ms, action: { type: remove_node, target_id: recall } }
`;

async function score(strategy?: unknown) {
  const scenario = loadScenario(SCENARIO);
  return runScenarioOnTarget(createEmbeddedTarget({ strategy, workloadRate: 50 }), scenario, { seed: 7 });
}

describe('embedded target scored by the arena', () => {
  it('heals every fault with the default strategy and scores far above recovery off', async () => {
    // two targets of their own, mostly waiting on the scenario's delays: both runs at once
    const [on, off] = await Promise.all([score(), score(RECOVERY_OFF_STRATEGY)]);
    expect(on.results.every((r) => r.result.success)).toBe(true);
    expect(on.score.recovery).toBeGreaterThan(off.score.recovery + 30);
    expect(on.score.availability).toBeGreaterThan(off.score.availability! + 20);
    expect(on.score.consistency).toBe(100);
    // the corrupted memory is still corrupted when the final checks run
    expect(off.score.measurements.consistency.failed_checks.map((c) => c.name)).toContain('memory_integrity');
    expect(on.score.score).toBeGreaterThan(off.score.score! + 20);
    expect(on.score.score).toBeGreaterThanOrEqual(75);
  }, 20_000);
});
