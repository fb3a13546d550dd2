/** Supervisor, election, failover and live strategy updates, on a manual clock (no sleeping). */
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/shared/clock.js';
import { UsageError } from '../../../src/shared/errors.js';
import { createRuntime, type AgentRuntime } from '../../../src/runtime/runtime.js';
import { mergeStrategy, DEFAULT_STRATEGY } from '../../../src/runtime/strategy.js';

let rt: AgentRuntime | undefined;
afterEach(async () => {
  await rt?.stop();
  rt = undefined;
});

function runtime(strategy: unknown = {}, topology?: { workers?: number; orchestrators?: number }) {
  const clock = new ManualClock();
  // no workload: these tests watch the recovery machinery alone
  rt = createRuntime({ clock, strategy: mergeStrategy(DEFAULT_STRATEGY, { workload: { enabled: false } }), topology });
  rt.updateStrategy(strategy);
  rt.start();
  return { clock, rt };
}

function kill(rt: AgentRuntime, id: string) {
  const agent = rt.agent(id);
  agent.kill();
  rt.noticeDeath(agent);
  return agent;
}

describe('supervisor', () => {
  it('resurrects after a backoff that doubles within the window, then gives up past the budget', async () => {
    const { clock, rt } = runtime({
      supervisor: { backoff_ms: 50, max_backoff_ms: 1000, max_restarts: 2, window_ms: 10_000 },
    });
    const agent = kill(rt, 'agent-2');
    expect(agent.state).toBe('restarting');
    await clock.advance(49);
    expect(agent.state).toBe('restarting');
    await clock.advance(1);
    expect(agent.state).toBe('running');
    expect(agent.restarts).toBe(1);
    kill(rt, 'agent-2');
    await clock.advance(99);
    expect(agent.state).toBe('restarting');
    await clock.advance(1);
    expect(agent.state).toBe('running');
    kill(rt, 'agent-2');
    await clock.advance(1000);
    expect(agent.state).toBe('failed');
    expect(rt.events().map((e) => e.kind)).toEqual(expect.arrayContaining(['agent_restarted', 'agent_failed']));
    expect(rt.health({ kind: 'agent', id: 'agent-2' }).problems).toContain('agent-2 is failed');
  });

  it('restarts budget is per window: old restarts stop counting', async () => {
    const { clock, rt } = runtime({ supervisor: { backoff_ms: 10, max_restarts: 1, window_ms: 500 } });
    kill(rt, 'agent-1');
    await clock.advance(10);
    expect(rt.agent('agent-1').state).toBe('running');
    await clock.advance(600);
    kill(rt, 'agent-1');
    await clock.advance(10);
    expect(rt.agent('agent-1').state).toBe('running');
    expect(rt.agent('agent-1').restarts).toBe(2);
  });

  it('does nothing when off, and picks stopped agents up when switched on live', async () => {
    const { clock, rt } = runtime({ supervisor: { enabled: false } });
    kill(rt, 'agent-3');
    await clock.advance(2000);
    expect(rt.agent('agent-3').state).toBe('stopped');
    rt.updateStrategy({ supervisor: { enabled: true } });
    await clock.advance(DEFAULT_STRATEGY.supervisor.backoff_ms);
    expect(rt.agent('agent-3').state).toBe('running');
  });
});

describe('leader election with leases', () => {
  it('elects the first worker at start and keeps it while it renews', async () => {
    const { clock, rt } = runtime();
    expect(rt.leaderId()).toBe('agent-1');
    await clock.advance(5000);
    expect(rt.leaderId()).toBe('agent-1');
    expect(rt.health({ kind: 'leader' }).healthy).toBe(true);
  });

  it('a dead leader loses its lease; a different worker leads within the lease time, even if the old one was resurrected', async () => {
    const { clock, rt } = runtime({ election: { lease_ms: 300, renew_interval_ms: 50 } });
    await clock.advance(100);
    kill(rt, 'agent-1');
    await clock.advance(100); // resurrected (backoff 50ms) but its lease belonged to the old incarnation
    expect(rt.agent('agent-1').state).toBe('running');
    expect(rt.health({ kind: 'leader' }).healthy).toBe(false);
    await clock.advance(250);
    expect(rt.leaderId()).toBe('agent-2');
    expect(rt.agents().find((a) => a.id === 'agent-2')!.role).toBe('leader');
    expect(rt.agents().find((a) => a.id === 'agent-1')!.role).toBe('worker');
    const elected = rt.events().find((e) => e.kind === 'leader_elected' && e.agent_id === 'agent-2')!;
    const lost = rt.events().find((e) => e.kind === 'leader_lost')!;
    expect(elected.at_ms).toBeLessThanOrEqual(100 + 300 + 50);
    expect(lost.agent_id).toBe('agent-1');
  });

  it('a partitioned leader cannot renew', async () => {
    const { clock, rt } = runtime();
    rt.agent('agent-1').partitioned = true;
    await clock.advance(DEFAULT_STRATEGY.election.lease_ms + DEFAULT_STRATEGY.election.renew_interval_ms);
    expect(rt.leaderId()).not.toBe('agent-1');
    expect(rt.leaderId()).toBeDefined();
  });

  it('with election off, leadership is static: nobody takes over', async () => {
    const { clock, rt } = runtime({ election: { enabled: false }, supervisor: { enabled: false } });
    kill(rt, 'agent-1');
    await clock.advance(5000);
    expect(rt.leaderId()).toBe('agent-1');
    expect(rt.health({ kind: 'leader' }).healthy).toBe(false);
  });
});

describe('orchestrator failover', () => {
  it('the standby takes over after the heartbeat timeout and the old active rejoins as standby', async () => {
    const { clock, rt } = runtime({ failover: { heartbeat_interval_ms: 25, heartbeat_timeout_ms: 150 } });
    kill(rt, 'orchestrator-1');
    await clock.advance(100);
    expect(rt.activeOrchestratorId()).toBe('orchestrator-1');
    await clock.advance(100);
    expect(rt.activeOrchestratorId()).toBe('orchestrator-2');
    expect(rt.agents().find((a) => a.id === 'orchestrator-1')!.role).toBe('standby');
    expect(rt.events().some((e) => e.kind === 'orchestrator_failover' && e.agent_id === 'orchestrator-2')).toBe(true);
  });

  it('with failover off, the first orchestrator stays active even when dead', async () => {
    const { clock, rt } = runtime({ failover: { enabled: false }, supervisor: { enabled: false } });
    kill(rt, 'orchestrator-1');
    await clock.advance(2000);
    expect(rt.activeOrchestratorId()).toBe('orchestrator-1');
    expect(rt.health({ kind: 'orchestrator' }).healthy).toBe(false);
  });
});

describe('topology and strategy updates', () => {
  it('builds a configurable topology', () => {
    const { rt } = runtime({}, { workers: 5, orchestrators: 1 });
    expect(rt.agents().map((a) => a.id)).toEqual([
      'agent-1',
      'agent-2',
      'agent-3',
      'agent-4',
      'agent-5',
      'orchestrator-1',
    ]);
    expect(() => createRuntime({ topology: { workers: 0 } })).toThrow(/topology.workers/);
  });

  it('applies a patch live to the subsystems and rejects a bad one without changing anything', () => {
    const { rt } = runtime();
    rt.updateStrategy({ tools: { timeout_ms: '2s', retries: 3 }, llm: { fallback: false } });
    expect(rt.agent('agent-1').subsystems.tools.timeoutMs).toBe(2000);
    expect(rt.agent('agent-1').subsystems.tools.retries).toBe(3);
    expect(rt.agent('agent-2').subsystems.llm.config().fallbackEnabled).toBe(false);
    const before = rt.strategy();
    expect(() => rt.updateStrategy({ tools: { timeout_ms: 'later' }, mcp: { nope: 1 } })).toThrow(UsageError);
    expect(rt.strategy()).toBe(before);
  });
});

describe('runtime lifecycle', () => {
  it('serves again after stop and start', async () => {
    const live = createRuntime({ strategy: { workload: { rate: 0 } } });
    rt = live;
    live.start();
    await Promise.all([...live.cluster.agents.values()].map((a) => a.subsystems.ready));
    expect(await live.submitRun()).toBe(true);
    await live.stop();
    await expect(live.submitRun()).rejects.toThrow(/not running/);
    live.start();
    await Promise.all([...live.cluster.agents.values()].map((a) => a.subsystems.ready));
    expect(await live.submitRun()).toBe(true);
    expect(live.stats()).toMatchObject({ requests: 2, succeeded: 2, failed: 0 });
  });
});
