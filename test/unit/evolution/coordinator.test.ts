import { afterEach, describe, expect, it } from 'vitest';
import { createEmbeddedTarget, getEmbeddedRuntime } from '../../../src/targets/embedded/index.js';
import { createRuntime } from '../../../src/runtime/runtime.js';
import { DEFAULT_STRATEGY, RECOVERY_OFF_STRATEGY, crossCheck, mergeStrategy } from '../../../src/runtime/strategy.js';
import { Injector } from '../../../src/arena/injector.js';
import { ArenaService } from '../../../src/arena/service.js';
import { createAction } from '../../../src/arena/actions.js';
import { ACTION_TYPES, type ActionType, type Result } from '../../../src/arena/action.js';
import type { Target } from '../../../src/arena/providers.js';
import { MemoryEventStore } from '../../../src/events/memory.js';
import { createRuntimeEvolution } from '../../../src/evolution/bridge.js';
import { EvolutionCoordinator, EVOLUTION_DECISIONS_STREAM } from '../../../src/evolution/coordinator.js';
import { PROPOSAL_RULES, proposePatch } from '../../../src/evolution/proposals.js';
import { estimateStrategyFitness } from '../../../src/evolution/estimate.js';
import { ManualClock } from '../../../src/shared/clock.js';
import { UsageError } from '../../../src/shared/errors.js';

let target: Target | undefined;
afterEach(async () => {
  await target?.stop();
  target = undefined;
});

const failure = (type: ActionType, target_id = 'agent-1'): Result => ({
  success: false,
  action: createAction(type, target_id),
  error: 'boom',
  duration_ms: 1,
});

describe('proposals', () => {
  it('has a valid patch and a priority for every fault kind, urgent for leader and orchestrator loss', () => {
    for (const type of ACTION_TYPES) {
      for (const base of [DEFAULT_STRATEGY, RECOVERY_OFF_STRATEGY]) {
        const p = proposePatch(failure(type), base);
        expect(crossCheck(mergeStrategy(base, p.patch))).toEqual([]);
        expect(p.priority).toBeGreaterThanOrEqual(1);
        expect(p.priority).toBeLessThanOrEqual(10);
      }
    }
    expect(PROPOSAL_RULES.kill_leader.priority).toBeGreaterThanOrEqual(9);
    expect(PROPOSAL_RULES.kill_orchestrator.priority).toBeGreaterThanOrEqual(9);
    expect(ACTION_TYPES.filter((t) => PROPOSAL_RULES[t].priority >= 9).sort()).toEqual([
      'kill_leader',
      'kill_orchestrator',
    ]);
    // computed from the strategy in force: a second leader loss shortens the lease again
    const once = mergeStrategy(DEFAULT_STRATEGY, proposePatch(failure('kill_leader'), DEFAULT_STRATEGY).patch);
    const twice = mergeStrategy(once, proposePatch(failure('kill_leader'), once).patch);
    expect(once.election.lease_ms).toBeLessThan(DEFAULT_STRATEGY.election.lease_ms);
    expect(twice.election.lease_ms).toBeLessThan(once.election.lease_ms);
  });

  it('estimates recovery-off far below the default', () => {
    expect(estimateStrategyFitness(RECOVERY_OFF_STRATEGY)).toBeLessThan(10);
    expect(estimateStrategyFitness(DEFAULT_STRATEGY)).toBeGreaterThan(80);
  });
});

describe('runtime evolution on a real arena', () => {
  it('turns a failed action into a patch applied to the running runtime, visible in its strategy', async () => {
    target = createEmbeddedTarget({ workloadRate: 50 });
    await target.start();
    const runtime = getEmbeddedRuntime(target)!;
    const store = new MemoryEventStore();
    const evolution = createRuntimeEvolution(runtime, { store });
    const service = new ArenaService({
      injector: new Injector(target.runtime, target.dag),
      observer: target.observer,
      evolutionBridge: evolution.bridge,
    });

    const result = await service.execute(createAction('kill_agent', 'ghost'));
    expect(result.success).toBe(false);
    await evolution.coordinator.flush();

    const [decision] = evolution.coordinator.decisions();
    expect(decision).toMatchObject({
      decision: 'applied',
      emergency: false,
      proposal: { action_type: 'kill_agent', priority: 6 },
    });
    expect(runtime.strategy().supervisor.backoff_ms).toBe(DEFAULT_STRATEGY.supervisor.backoff_ms / 2);
    expect(runtime.strategy().supervisor.max_restarts).toBe(DEFAULT_STRATEGY.supervisor.max_restarts + 2);
    expect(((await target.describe()).strategy as unknown as typeof DEFAULT_STRATEGY).supervisor.backoff_ms).toBe(25);
    const status = await evolution.status();
    expect(status).toMatchObject({ applied: 1, rejected: 0, delayed: 0 });
    expect(status.strategy.supervisor.backoff_ms).toBe(25);
    // recorded in the store
    const stored = await store.read(EVOLUTION_DECISIONS_STREAM);
    expect(stored.map((e) => e.type)).toEqual(['evolution.applied']);
    // successful actions do not evolve anything
    await service.execute(createAction('slow_agent', 'agent-2', { metadata: { duration: '20ms' } }));
    await evolution.coordinator.flush();
    expect(evolution.coordinator.decisions()).toHaveLength(1);
    evolution.dispose();
  });
});

describe('EvolutionCoordinator policy', () => {
  it('delays over the rate limit and applies the delayed patch when the window has room', async () => {
    const clock = new ManualClock();
    const runtime = createRuntime({ clock });
    const evolution = createRuntimeEvolution(runtime, { clock, policy: { maxApplied: 2, windowMs: 1000 } });
    const d1 = await evolution.bridge.handle(failure('kill_agent'));
    const d2 = await evolution.bridge.handle(failure('tool_timeout'));
    const d3 = await evolution.bridge.handle(failure('memory_corrupt'));
    expect([d1, d2, d3].map((d) => d.decision.decision)).toEqual(['applied', 'applied', 'delayed']);
    const integrityBefore = runtime.strategy().integrity.check_interval_ms;
    expect(evolution.coordinator.pending()).toHaveLength(1);

    await clock.advance(999);
    expect(evolution.coordinator.pending()).toHaveLength(1);
    await clock.advance(1);
    await evolution.coordinator.flush();
    expect(evolution.coordinator.pending()).toHaveLength(0);
    const last = evolution.coordinator.decisions().at(-1)!;
    expect(last).toMatchObject({
      decision: 'applied',
      reason: 'applied after waiting for the rate limit',
      proposal: { action_type: 'memory_corrupt' },
    });
    expect(runtime.strategy().integrity.check_interval_ms).toBeLessThan(integrityBefore);
  });

  it('applies priority ≥ 9 at once, bypassing a full rate limit and the minimum fitness', async () => {
    const clock = new ManualClock();
    const runtime = createRuntime({ clock, strategy: RECOVERY_OFF_STRATEGY });
    const evolution = createRuntimeEvolution(runtime, {
      clock,
      policy: { maxApplied: 1, windowMs: 60_000, minFitness: 50 },
    });
    // recovery-off is estimated far under 50: an ordinary patch is rejected by the policy
    const slow = await evolution.bridge.handle(failure('slow_agent'));
    expect(slow.decision).toMatchObject({ decision: 'rejected', emergency: false });
    expect(slow.decision.reason).toMatch(/under the minimum 50/);
    const leader = await evolution.bridge.handle(failure('kill_leader'));
    expect(leader.decision).toMatchObject({ decision: 'applied', emergency: true });
    expect(runtime.strategy().election.enabled).toBe(true);
    const orch = await evolution.bridge.handle(failure('kill_orchestrator'));
    expect(orch.decision).toMatchObject({ decision: 'applied', emergency: true });
    expect(runtime.strategy().failover.enabled).toBe(true);
    expect(runtime.strategy().failover.heartbeat_timeout_ms).toBeLessThan(
      RECOVERY_OFF_STRATEGY.failover.heartbeat_timeout_ms,
    );
  });

  it('rejects a patch that changes nothing, and records every decision', async () => {
    const runtime = createRuntime();
    const coordinator = new EvolutionCoordinator({ target: runtime });
    const p = proposePatch(failure('resume_agent'), runtime.strategy());
    const d = await coordinator.submit(p);
    expect(d).toMatchObject({ decision: 'rejected', reason: expect.stringMatching(/no change/) });
    expect(coordinator.decisions()).toEqual([d]);
    expect(() => new EvolutionCoordinator({ target: runtime, policy: { maxApplied: 0 } })).toThrow(UsageError);
  });

  it('rejects a patch whose estimated fitness would drop', async () => {
    const runtime = createRuntime();
    const coordinator = new EvolutionCoordinator({ target: runtime });
    const p = { ...proposePatch(failure('kill_agent'), runtime.strategy()), patch: { supervisor: { enabled: false } } };
    expect((await coordinator.submit(p)).reason).toMatch(/would drop/);
    expect(runtime.strategy().supervisor.enabled).toBe(true);
  });
});
