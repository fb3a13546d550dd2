/**
 * Issue 11: evolution rewrote the served runtime's live strategy because
 * injections failed (422: the fault could not be applied). Live patching is
 * opt-in and learns only from applied faults the runtime did not recover from.
 */
import { describe, expect, it } from 'vitest';
import { createAsyncQueue } from '../../../../src/shared/async-queue.js';
import type { ArenaEvent } from '../../../../src/arena/service.js';
import type { Result } from '../../../../src/arena/action.js';
import { startLiveEvolution } from '../../../../src/evolution/live.js';
import type { ArenaEvolutionBridge } from '../../../../src/evolution/bridge.js';
import { call, serveRootForTest, stateOf } from './served-root.js';

const result = (id: string, success: boolean): Result => ({
  success,
  action: { id, type: 'kill_agent', target_id: 'agent-1', created_at: new Date(0).toISOString() },
  duration_ms: 1,
  ...(success ? {} : { error: 'agent is restarting; the fault cannot be applied' }),
});

describe('live evolution of a served runtime', () => {
  it('is off by default: faults that cannot be applied leave the strategy alone, and /arena/evolution says it is off', async () => {
    const { url, root } = await serveRootForTest();
    const strategy = JSON.parse(stateOf(root)).strategy;
    for (let i = 0; i < 5; i++) {
      expect((await call(url, 'POST', '/arena/agent/agent-9/kill')).status).toBe(422);
      expect((await call(url, 'POST', '/arena/node/nope/remove')).status).toBe(422);
    }
    await new Promise((r) => setTimeout(r, 100));
    expect(JSON.parse(stateOf(root)).strategy).toEqual(strategy);
    expect((await call(url, 'GET', '/api/v1/runtime-evolution/status')).json.runtime.applied).toBe(0);
    const status = await call(url, 'GET', '/api/v1/arena/evolution');
    expect(status.json).toMatchObject({ enabled: false });
  });

  it('with evolve on, 422s still change nothing; the status says what it learns from', async () => {
    const { url, root } = await serveRootForTest({ evolve: true });
    const strategy = JSON.parse(stateOf(root)).strategy;
    for (let i = 0; i < 5; i++) expect((await call(url, 'POST', '/arena/agent/agent-9/kill')).status).toBe(422);
    await new Promise((r) => setTimeout(r, 100));
    expect(JSON.parse(stateOf(root)).strategy).toEqual(strategy);
    const status = (await call(url, 'GET', '/arena/evolution')).json;
    expect(status).toMatchObject({ enabled: true, watched: 0, unrecovered: 0 });
    expect(status.learns_from).toContain('did not recover');
  });

  it('proposes a patch only for an applied fault whose target stayed unhealthy past the deadline', async () => {
    const events = createAsyncQueue<ArenaEvent>();
    const handled: string[] = [];
    let healthy = false;
    const live = startLiveEvolution({
      service: { subscribe: ({ signal }) => (signal?.addEventListener('abort', () => events.close()), events) },
      observer: { health: () => ({ healthy, problems: healthy ? [] : ['agent-1 is stopped'] }), workload: () => ({ requests: 0, succeeded: 0, failed: 0 }), checkInvariants: async () => [] },
      bridge: { handle: async (r: Result) => (handled.push(r.action.id), { proposal: {}, decision: { decision: 'applied' } }) } as unknown as ArenaEvolutionBridge,
      recoveryDeadlineMs: 80,
    });
    events.push({ seq: 1, type: 'arena.action.failed', at: '', result: result('not-applied', false) });
    events.push({ seq: 2, type: 'arena.action.executed', at: '', result: result('never-recovered', true) });
    await new Promise((r) => setTimeout(r, 300));
    healthy = true;
    events.push({ seq: 3, type: 'arena.action.executed', at: '', result: result('recovered', true) });
    await new Promise((r) => setTimeout(r, 150));
    expect(handled).toEqual(['never-recovered']);
    expect(live.status()).toMatchObject({ watched: 2, unrecovered: 1, decisions: { applied: 1 } });
    await live.stop();
  });
});
