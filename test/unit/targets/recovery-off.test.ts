/**
 * The contrast: with every recovery mechanism off, the same faults visibly hurt
 * the workload and the target stays broken. This is what makes scores and A/B
 * comparisons of strategies meaningful.
 */
import { describe, it, type TestContext } from 'vitest';
import type { Target } from '../../../src/arena/providers.js';
import { createEmbeddedTarget, getEmbeddedRuntime } from '../../../src/targets/embedded/index.js';
import { RECOVERY_OFF_STRATEGY } from '../../../src/runtime/strategy.js';
import type { AgentRuntime } from '../../../src/runtime/runtime.js';
import { sleep, waitFor } from './wait.js';

/** a started target of the test's own, stopped when the test finishes (the tests run concurrently) */
async function started(ctx: TestContext): Promise<{ t: Target; rt: AgentRuntime }> {
  const target = createEmbeddedTarget({ strategy: RECOVERY_OFF_STRATEGY, workloadRate: 100 });
  ctx.onTestFinished(() => target.stop());
  await target.start();
  const rt = getEmbeddedRuntime(target)!;
  await waitFor(() => rt.stats().succeeded >= 3, 'the workload to serve its first runs');
  return { t: target, rt };
}

/** availability of the runs that finish during `ms`, and after it until at least 6 have (a starved machine runs few) */
async function availabilityOver(rt: AgentRuntime, ms: number, expect: TestContext['expect']): Promise<number> {
  const before = rt.stats();
  await sleep(ms);
  await waitFor(() => rt.stats().requests - before.requests > 5, 'six workload runs to finish', 30_000);
  const after = rt.stats();
  const requests = after.requests - before.requests;
  expect(requests).toBeGreaterThan(5);
  return (after.succeeded - before.succeeded) / requests;
}

/**
 * availability of the runs that start from now on (at least 6 of them): runs started before a fault may
 * still finish well after it on a loaded machine
 */
async function availabilityOfNewRuns(rt: AgentRuntime, expect: TestContext['expect']): Promise<number> {
  const now = rt.stats();
  const firstRun = now.requests + now.in_flight + 1; // runs are numbered from 1 as they start
  const runsSince = () => rt.recentRuns(500).filter((r) => r.run >= firstRun);
  await waitFor(() => runsSince().length > 5, 'six new workload runs to finish', 30_000);
  const runs = runsSince();
  expect(runs.length).toBeGreaterThan(5);
  return runs.filter((r) => r.ok).length / runs.length;
}

// each test has its own target and mostly waits for a fault's effect to show and stay: they run side by side
describe('embedded target with RECOVERY_OFF_STRATEGY: faults hurt and stay', { concurrent: true }, () => {
  it('serves fully while no fault is active', async (ctx) => {
    const { expect } = ctx;
    const { rt } = await started(ctx);
    expect(await availabilityOver(rt, 200, expect)).toBe(1);
  });

  it('kill_agent: nobody resurrects it and runs dispatched to it fail', async (ctx) => {
    const { expect } = ctx;
    const { t, rt } = await started(ctx);
    await t.runtime.stopAgent('agent-2');
    await sleep(300);
    expect(rt.agent('agent-2').state).toBe('stopped');
    expect((await t.observer.health({ kind: 'agent', id: 'agent-2' })).healthy).toBe(false);
    const availability = await availabilityOver(rt, 300, expect);
    expect(availability).toBeLessThan(0.8);
    expect(rt.recentRuns(20).some((r) => !r.ok && r.worker === 'agent-2')).toBe(true);
  });

  it('kill_leader: no new leader, so no run can be planned', async (ctx) => {
    const { expect } = ctx;
    const { t, rt } = await started(ctx);
    const leader = rt.leaderId()!;
    await t.runtime.stopAgent(leader);
    await sleep(400);
    expect((await t.observer.health({ kind: 'leader' })).healthy).toBe(false);
    expect(await availabilityOver(rt, 200, expect)).toBe(0);
  });

  it('kill_orchestrator: no standby takeover, so nothing is dispatched', async (ctx) => {
    const { expect } = ctx;
    const { t, rt } = await started(ctx);
    await t.runtime.stopAgent('orchestrator-1');
    await sleep(300);
    expect(rt.activeOrchestratorId()).toBe('orchestrator-1');
    expect(await availabilityOver(rt, 200, expect)).toBe(0);
  });

  it('memory_corrupt: the damage stays, recalls read it, outputs go wrong and the invariants fail', async (ctx) => {
    const { expect } = ctx;
    const { t, rt } = await started(ctx);
    await waitFor(() => rt.agent('agent-1').memory.size > 3, 'agent-1 to have written memory');
    // a run recalls only its worker's last write, so outputs go wrong once the damage covers that entry.
    // Which entries one corruption hits depends on how many there are (more, under load): corrupt
    // again until the damage covers it, as a second fault would
    const damaged = new Set<string>();
    for (let i = 0; i < 30 && !damaged.has(rt.ledger.lastApplied('agent-1')!.key); i++) {
      for (const key of ((await t.runtime.corruptMemory('agent-1')) as { corrupted_keys: string[] }).corrupted_keys)
        damaged.add(key);
    }
    expect(damaged.has(rt.ledger.lastApplied('agent-1')!.key)).toBe(true);
    await sleep(300);
    expect(rt.agent('agent-1').memory.verify().ok).toBe(false);
    // damage is not an external condition: revertAll leaves it for the target's own recovery
    await t.runtime.revertAll();
    expect(rt.agent('agent-1').memory.verify().ok).toBe(false);
    const failed = (await t.observer.checkInvariants()).filter((c) => !c.passed).map((c) => c.name);
    expect(failed).toContain('memory_integrity');
    await waitFor(() => rt.stats().mismatched > 0, 'a run to recall damaged memory');
  });

  it('mcp_disconnect: the session stays closed and fetches fail', async (ctx) => {
    const { expect } = ctx;
    const { t, rt } = await started(ctx);
    await t.runtime.disconnectMcp('agent-3');
    await sleep(200);
    expect(rt.agent('agent-3').subsystems.mcp.isConnected()).toBe(false);
    expect(await availabilityOver(rt, 300, expect)).toBeLessThan(0.8);
    expect(rt.recentRuns(30).some((r) => !r.ok && /MCP/.test(r.error ?? ''))).toBe(true);
  });

  it('llm_failure: without retries or fallback the agent’s LLM steps fail', async (ctx) => {
    const { expect } = ctx;
    const { t, rt } = await started(ctx);
    await t.runtime.injectLlmFailure('agent-2', 'rate_limit');
    expect((await t.observer.health({ kind: 'agent', id: 'agent-2' })).healthy).toBe(false);
    expect(await availabilityOver(rt, 300, expect)).toBeLessThan(0.8);
  });

  it('remove_node: the DAG stays broken and every run fails', async (ctx) => {
    const { expect } = ctx;
    const { t, rt } = await started(ctx);
    await t.dag!.removeNode('tool');
    await sleep(200);
    expect(await t.dag!.listNodes()).not.toContain('tool');
    expect(await availabilityOfNewRuns(rt, expect)).toBe(0);
  });

  it('remove_edge: the dependency stays missing and runs fail', async (ctx) => {
    const { expect } = ctx;
    const { t, rt } = await started(ctx);
    await t.dag!.removeEdge('fetch', 'plan');
    await sleep(200);
    expect((await t.observer.health({ kind: 'dag' })).healthy).toBe(false);
    expect(await availabilityOfNewRuns(rt, expect)).toBe(0);
  });

  it('network_partition: dispatch keeps sending to the partitioned worker, those runs time out', async (ctx) => {
    const { expect } = ctx;
    const { t, rt } = await started(ctx);
    await t.runtime.partitionNetwork('agent-3');
    await sleep(1200); // runs sent into the partition fail at their timeout
    expect(await availabilityOver(rt, 300, expect)).toBeLessThan(0.8);
  });

  it('tool_timeout and pause_agent: failures without retries or rerouting', async (ctx) => {
    // each wait fails the test when the failure it waits for does not come
    const { t, rt } = await started(ctx);
    await t.runtime.toolTimeout('agent-1');
    await waitFor(
      () => rt.recentRuns(30).some((r) => !r.ok && /timed out/.test(r.error ?? '')),
      'a run whose tool timed out',
    );
    await t.runtime.revertAll();
    await t.runtime.pauseAgent('agent-2');
    await waitFor(
      () => rt.recentRuns(40).some((r) => !r.ok && r.worker === 'agent-2'),
      'a run sent to the paused agent-2 to fail',
    );
  });
});
