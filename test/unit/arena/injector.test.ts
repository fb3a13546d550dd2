import { afterEach, describe, expect, it } from 'vitest';
import { Injector } from '../../../src/arena/injector.js';
import { createAction } from '../../../src/arena/actions.js';
import { NotFoundError, RuntimeError } from '../../../src/shared/errors.js';
import { ManualClock } from '../../../src/shared/clock.js';
import { createFakeTarget, type FakeTarget } from '../../helpers/fake-target.js';

let target: FakeTarget | undefined;
afterEach(async () => target?.stop());

function setup(recovery = true) {
  const clock = new ManualClock();
  target = createFakeTarget({ clock, recovery });
  return { clock, target, injector: new Injector(target.runtime, target.dag) };
}

describe('Injector', () => {
  it('kills the current leader, found from roles, and reports its id', async () => {
    const { injector, target, clock } = setup();
    expect(await injector.killLeader()).toMatchObject({ killed_leader_id: 'agent-1' });
    expect(target.agent('agent-1').status).toBe('stopped');
    await clock.advance(25); // election
    expect(await injector.killLeader()).toMatchObject({ killed_leader_id: 'agent-2' });
  });

  it('kills the active orchestrator, not the standby', async () => {
    const { injector, target, clock } = setup();
    expect(await injector.killOrchestrator()).toMatchObject({ killed_orchestrator_id: 'orchestrator-1' });
    await clock.advance(25);
    expect(target.agent('orchestrator-2').role).toBe('orchestrator');
    expect(await injector.killOrchestrator()).toMatchObject({ killed_orchestrator_id: 'orchestrator-2' });
  });

  it('fails clearly when there is no leader to kill', async () => {
    const { injector } = setup(false);
    await injector.killLeader();
    await expect(injector.killLeader()).rejects.toThrow(/no running elected leader/);
  });

  it('slow_agent: duration defaults to 5s and the per-task delay to the duration', async () => {
    const { injector, target, clock } = setup();
    expect(await injector.apply(createAction('slow_agent', 'agent-2'))).toMatchObject({
      duration_ms: 5000,
      delay_ms: 5000,
    });
    expect(target.agent('agent-2').slowMs).toBe(5000);
    await clock.advance(5000);
    expect(target.agent('agent-2').slowMs).toBe(0);
    expect(
      await injector.apply(createAction('slow_agent', 'agent-3', { metadata: { duration: '1s', delay: '200ms' } })),
    ).toMatchObject({
      duration_ms: 1000,
      delay_ms: 200,
    });
    expect(target.agent('agent-3').slowMs).toBe(200);
  });

  it('applies every other fault through apply()', async () => {
    const { injector, target } = setup();
    await injector.apply(createAction('pause_agent', 'agent-2'));
    expect(target.agent('agent-2').status).toBe('paused');
    await injector.apply(createAction('resume_agent', 'agent-2'));
    expect(target.agent('agent-2').status).toBe('running');
    await injector.apply(createAction('network_partition', 'agent-3', { metadata: { duration: 100 } }));
    expect(target.agent('agent-3').partitioned).toBe(true);
    await injector.apply(createAction('tool_timeout', 'agent-1'));
    expect(target.agent('agent-1').toolHang).toBe(true);
    await injector.apply(createAction('memory_corrupt', 'agent-1'));
    expect(target.agent('agent-1').memoryOk).toBe(false);
    await injector.apply(createAction('mcp_disconnect', 'agent-1'));
    expect(target.agent('agent-1').mcpConnected).toBe(false);
    expect(
      await injector.apply(createAction('llm_failure', 'agent-2', { metadata: { error_type: 'overloaded' } })),
    ).toMatchObject({
      error_type: 'overloaded',
      duration_ms: 5000,
    });
    await injector.apply(createAction('remove_edge', 'answer', { source_id: 'tool' }));
    expect(await injector.dagEdges()).not.toContainEqual({ from: 'tool', to: 'answer' });
    await injector.apply(createAction('remove_node', 'recall'));
    expect(await injector.dagNodes()).not.toContain('recall');
    expect((await injector.activeFaults()).length).toBeGreaterThan(0);
    await injector.revertAll();
    expect(await injector.activeFaults()).toEqual([]);
    expect(target.agent('agent-3').partitioned).toBe(false);
  });

  it('passes target errors through (unknown agent)', async () => {
    const { injector } = setup();
    await expect(injector.killAgent('agent-9')).rejects.toThrow(NotFoundError);
  });

  it('a missing provider is a clear RuntimeError', async () => {
    const injector = new Injector();
    await expect(injector.killAgent('agent-1')).rejects.toThrow(RuntimeError);
    await expect(injector.killAgent('agent-1')).rejects.toThrow(/no runtime provider/);
    await expect(injector.removeNode('plan')).rejects.toThrow(/no workflow DAG provider/);
    // pause and resume are not async functions: they still reject rather than throw
    await expect(injector.pauseAgent('agent-1', 100)).rejects.toThrow(
      /pause_agent cannot be applied: this target has no runtime provider/,
    );
    await expect(injector.resumeAgent('agent-1')).rejects.toThrow(/resume_agent cannot be applied/);
    await expect(
      injector.apply(createAction('pause_agent', 'agent-1', { metadata: { duration: 'soon' } })),
    ).rejects.toThrow(/metadata.duration/);
    expect(await injector.availableAgentIds()).toEqual([]);
    expect(await injector.dagNodes()).toEqual([]);
  });

  it('availableAgentIds lists running agents only', async () => {
    const { injector } = setup(false);
    await injector.killAgent('agent-2');
    expect(await injector.availableAgentIds()).toEqual(['agent-1', 'agent-3', 'orchestrator-1', 'orchestrator-2']);
  });
});
