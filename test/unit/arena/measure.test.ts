import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/shared/clock.js';
import { healthScopeFor, startMeasurement } from '../../../src/arena/measure/index.js';
import { ArenaService } from '../../../src/arena/service.js';
import { Injector } from '../../../src/arena/injector.js';
import { createAction } from '../../../src/arena/actions.js';
import type { FaultRecovery } from '../../../src/arena/report.js';
import type { TargetObserver } from '../../../src/arena/providers.js';
import { createFakeTarget, type FakeTarget } from '../../helpers/fake-target.js';

let target: FakeTarget | undefined;
afterEach(async () => target?.stop());

async function setup(recovery = true) {
  const clock = new ManualClock();
  target = createFakeTarget({ clock, recovery, restartMs: 300, electionMs: 200, workIntervalMs: 10 });
  await target.start();
  const service = new ArenaService({ injector: new Injector(target.runtime, target.dag), clock });
  const recoveries: FaultRecovery[] = [];
  const session = await startMeasurement({
    observer: target.observer,
    clock,
    pollIntervalMs: 10,
    recoveryDeadlineMs: 2000,
    onRecovery: (r) => recoveries.push(r),
  });
  return { clock, service, session, recoveries, target };
}

describe('startMeasurement', () => {
  it('measures availability over the window from the workload counters', async () => {
    const { clock, session } = await setup();
    await clock.advance(1000);
    const report = await session.finish();
    expect(report.measurements.requests.total).toBe(100);
    expect(report.availability).toBe(100);
    expect(report.recovery).toBe(100);
    expect(report.consistency).toBe(100);
    expect(report.score).toBe(100);
  });

  it('has no live availability or score before the first workload request, then measures them', async () => {
    const { clock, session } = await setup();
    expect(await await session.liveScore()).toMatchObject({ availability: null, score: null, recovery: 100 });
    await clock.advance(100);
    expect(await await session.liveScore()).toMatchObject({ availability: 100, score: 100 });
  });

  it('times recovery of a killed leader by polling health', async () => {
    const { clock, service, session, recoveries } = await setup();
    await clock.advance(100);
    const r = await service.execute(createAction('kill_leader'));
    session.faultInjected(r, 'first-kill');
    // still recovering: pending, not counted as a failure to recover
    expect(await session.liveScore()).toMatchObject({ recovery: 100, pending_recoveries: 1, settled_recoveries: 0 });
    await clock.advance(1000);
    expect(recoveries).toEqual([
      expect.objectContaining({
        label: 'first-kill',
        type: 'kill_leader',
        target: 'agent-1',
        recovered: true,
        recovery_ms: 200,
      }),
    ]);
    const report = await session.finish();
    expect(report.measurements.recovery).toMatchObject({
      disruptive_faults: 1,
      recovered: 1,
      mttr_p50_ms: 200,
      mttr_p95_ms: 200,
      speed: 100,
    });
    expect(report.measurements.requests.failed).toBeGreaterThan(0); // requests failed while there was no leader
    expect(report.availability).toBeLessThan(100);
    expect(report.injections).toEqual({ total: 1, succeeded: 1, failed: 0 });
  });

  it('a fault that never heals counts as not recovered at the deadline; finish waits for it', async () => {
    const { clock, service, session, recoveries } = await setup(false);
    session.faultInjected(await service.execute(createAction('memory_corrupt', 'agent-2')));
    let report: Awaited<ReturnType<typeof session.finish>> | undefined;
    void session.finish().then((r) => (report = r));
    await clock.advance(1000);
    expect(report).toBeUndefined();
    await clock.advance(1100);
    expect(recoveries).toEqual([expect.objectContaining({ recovered: false })]);
    expect(report!.recovery).toBe(0);
    expect(report!.consistency).toBeLessThan(100);
    expect(report!.measurements.consistency.failed_checks).toContainEqual({
      name: 'memory integrity agent-2',
      detail: 'checksum mismatch',
    });
  });

  it('non-disruptive and failed injections are counted but not timed', async () => {
    const { service, session } = await setup();
    session.faultInjected(
      await service.execute(createAction('slow_agent', 'agent-2', { metadata: { duration: 100 } })),
    );
    session.faultInjected(await service.execute(createAction('kill_agent', 'agent-9')));
    expect(session.pendingCount()).toBe(0);
    const report = await session.finish();
    expect(report.measurements.recovery.disruptive_faults).toBe(0);
    expect(report.injections).toEqual({ total: 2, succeeded: 1, failed: 1 });
  });

  it('an aborted finish stops waiting: a fault inside its deadline is interrupted (not counted), one past it missed', async () => {
    const { clock, service, session } = await setup(false);
    session.faultInjected(await service.execute(createAction('memory_corrupt', 'agent-2')));
    await clock.advance(2500); // past the 2 s deadline: a real miss
    session.faultInjected(await service.execute(createAction('kill_agent', 'agent-3')));
    const ac = new AbortController();
    ac.abort();
    const report = await session.finish({ signal: ac.signal });
    expect(report.measurements.recovery).toMatchObject({ disruptive_faults: 1, recovered: 0, interrupted: 1 });
    expect(report.measurements.recovery.faults.map((f) => [f.type, f.recovered, f.interrupted])).toEqual([
      ['memory_corrupt', false, undefined],
      ['kill_agent', false, true],
    ]);
  });

  it('polls the part of the target each disruptive fault damaged', () => {
    const scope = (type: Parameters<typeof createAction>[0], target = 'agent-2') =>
      healthScopeFor({ success: true, action: createAction(type, target), duration_ms: 0 });
    expect(scope('kill_agent')).toEqual({ kind: 'agent', id: 'agent-2', aspect: 'process' });
    expect(scope('memory_corrupt')).toEqual({ kind: 'agent', id: 'agent-2', aspect: 'memory' });
    expect(scope('mcp_disconnect')).toEqual({ kind: 'agent', id: 'agent-2', aspect: 'mcp' });
    expect(scope('llm_failure')).toEqual({ kind: 'agent', id: 'agent-2', aspect: 'llm' });
    expect(scope('network_partition')).toEqual({ kind: 'agent', id: 'agent-2', aspect: 'network' });
    expect(scope('kill_leader', '')).toEqual({ kind: 'leader' });
    expect(scope('kill_orchestrator', '')).toEqual({ kind: 'orchestrator' });
    expect(scope('remove_node', 'plan')).toEqual({ kind: 'dag' });
    expect(scope('remove_edge', 'tool')).toEqual({ kind: 'dag' });
    expect(scope('slow_agent')).toBeUndefined();
    expect(scope('tool_timeout')).toBeUndefined();
  });

  it('times each fault on its own: a slow health check of one does not delay the recovery of another', async () => {
    const clock = new ManualClock();
    let restartedAt = Number.POSITIVE_INFINITY;
    const observer: TargetObserver = {
      async health(scope) {
        // the LLM aspect's probe is held to a 2 s timeout and fails; the process comes back at restartedAt
        if (scope.kind === 'agent' && scope.aspect === 'llm') {
          await clock.sleep(2000);
          return { healthy: false, problems: ['probe timed out'] };
        }
        const healthy = clock.now() >= restartedAt;
        return { healthy, problems: healthy ? [] : ['down'] };
      },
      workload: async () => ({ requests: 0, succeeded: 0, failed: 0 }),
      checkInvariants: async () => [],
    };
    const recoveries: FaultRecovery[] = [];
    const session = await startMeasurement({
      observer,
      clock,
      pollIntervalMs: 10,
      recoveryDeadlineMs: 10_000,
      onRecovery: (r) => recoveries.push(r),
    });
    const injected = (type: 'llm_failure' | 'kill_agent') => ({
      success: true,
      action: createAction(type, 'agent-1'),
      duration_ms: 0,
    });
    session.faultInjected(injected('llm_failure'));
    await clock.advance(5);
    session.faultInjected(injected('kill_agent'));
    restartedAt = clock.now() + 100;
    await clock.advance(500);
    expect(recoveries).toEqual([expect.objectContaining({ type: 'kill_agent', recovered: true })]);
    expect(recoveries[0]!.recovery_ms).toBeLessThanOrEqual(110);
    expect(session.pendingCount()).toBe(1);
  });
});
