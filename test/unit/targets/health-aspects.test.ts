/**
 * Recovery is judged per fault, on the part of the agent the fault damaged:
 * two faults on one agent do not block each other, and an LLM failure counts
 * as recovered only once the agent's LLM calls really succeed again.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Target } from '../../../src/arena/providers.js';
import { startMeasurement } from '../../../src/arena/measure/index.js';
import { Injector } from '../../../src/arena/injector.js';
import { ArenaService } from '../../../src/arena/service.js';
import { createAction } from '../../../src/arena/actions.js';
import { createEmbeddedTarget, getEmbeddedRuntime } from '../../../src/targets/embedded/index.js';
import { sleep, waitFor } from './wait.js';

let target: Target | undefined;
afterEach(async () => {
  await target?.stop();
  target = undefined;
});

async function started(strategy: unknown) {
  target = createEmbeddedTarget({ strategy, workloadRate: 50 });
  await target.start();
  return {
    t: target,
    rt: getEmbeddedRuntime(target)!,
    service: new ArenaService({ injector: new Injector(target.runtime, target.dag) }),
  };
}

describe('per-aspect agent health on the embedded target', () => {
  it('an MCP drop that never reconnects does not stop an LLM failure on the same agent from recovering via the fallback', async () => {
    const { t, service } = await started({
      mcp: { enabled: false },
      llm: { enabled: true, fallback: true, retries: 2, backoff_ms: 20 },
    });
    const session = await startMeasurement({ observer: t.observer, pollIntervalMs: 10, recoveryDeadlineMs: 600 });
    session.faultInjected(await service.execute(createAction('mcp_disconnect', 'agent-2')), 'mcp');
    session.faultInjected(
      await service.execute(createAction('llm_failure', 'agent-2', { metadata: { error_type: 'overloaded' } })),
      'llm',
    );
    const report = await session.finish();
    const byLabel = Object.fromEntries(report.measurements.recovery.faults.map((f) => [f.label, f]));
    expect(byLabel.mcp).toMatchObject({ type: 'mcp_disconnect', recovered: false });
    expect(byLabel.llm).toMatchObject({ type: 'llm_failure', recovered: true });
    // a real call had to go through retries (20 + 40 ms backoff) and the fallback: not 0 ms by definition
    expect(byLabel.llm!.recovery_ms!).toBeGreaterThanOrEqual(50);
    // the whole agent is still unhealthy: its MCP session is down
    expect((await t.observer.health({ kind: 'agent', id: 'agent-2' })).healthy).toBe(false);
  });

  it('without a fallback an LLM failure recovers only after its duration ends', async () => {
    const { t, service } = await started({ llm: { enabled: true, fallback: false, retries: 0 } });
    const session = await startMeasurement({ observer: t.observer, pollIntervalMs: 10, recoveryDeadlineMs: 2000 });
    session.faultInjected(
      await service.execute(
        createAction('llm_failure', 'agent-1', { metadata: { error_type: 'server_error', duration: '300ms' } }),
      ),
      'llm',
    );
    await sleep(150);
    const scope = { kind: 'agent', id: 'agent-1', aspect: 'llm' } as const;
    expect(await t.observer.health(scope)).toMatchObject({
      healthy: false,
      problems: [expect.stringContaining('agent-1 LLM calls have not succeeded since the fault')],
    });
    const report = await session.finish();
    const [llm] = report.measurements.recovery.faults;
    expect(llm).toMatchObject({ recovered: true });
    expect(llm!.recovery_ms!).toBeGreaterThanOrEqual(300);
  });

  it('each new LLM failure needs a new successful call; the other aspects read the agent', async () => {
    const { t, rt, service } = await started({ llm: { enabled: true, fallback: false, retries: 0 } });
    const llm = { kind: 'agent', id: 'agent-3', aspect: 'llm' } as const;
    await t.observer.health(llm); // starts a probe: no fault yet, so it succeeds
    await waitFor(async () => (await t.observer.health(llm)).healthy, 'the first probe to succeed');
    await service.execute(createAction('llm_failure', 'agent-3', { metadata: { error_type: 'rate_limit' } }));
    expect((await t.observer.health(llm)).healthy).toBe(false);
    await sleep(50);
    expect((await t.observer.health(llm)).healthy).toBe(false);
    await t.runtime.revertAll();
    await waitFor(async () => (await t.observer.health(llm)).healthy, 'a probe after the revert to succeed');

    await service.execute(createAction('network_partition', 'agent-3'));
    expect(await t.observer.health({ kind: 'agent', id: 'agent-3', aspect: 'network' })).toEqual({
      healthy: false,
      problems: ['agent-3 is partitioned from the network'],
    });
    expect((await t.observer.health({ kind: 'agent', id: 'agent-3', aspect: 'process' })).healthy).toBe(true);
    expect((await t.observer.health({ kind: 'agent', id: 'agent-3', aspect: 'mcp' })).healthy).toBe(true);
    expect((await t.observer.health({ kind: 'agent', id: 'agent-3', aspect: 'memory' })).healthy).toBe(true);
    expect((await t.observer.health({ kind: 'agent', id: 'agent-3', aspect: 'tools' })).healthy).toBe(true);
    await t.runtime.stopAgent('agent-1');
    expect(await t.observer.health({ kind: 'agent', id: 'agent-1', aspect: 'process' })).toEqual({
      healthy: false,
      problems: [`agent-1 is ${rt.agent('agent-1').state}`],
    });
  });
});
