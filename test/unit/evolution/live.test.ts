/** Live evolution learns only from applied faults the target did not recover from in time. */
import { describe, expect, it } from 'vitest';
import { createAsyncQueue } from '../../../src/shared/async-queue.js';
import type { ArenaEvent } from '../../../src/arena/service.js';
import type { Result } from '../../../src/arena/action.js';
import { startLiveEvolution } from '../../../src/evolution/live.js';
import type { ArenaEvolutionBridge } from '../../../src/evolution/bridge.js';

const result = (id: string, success: boolean): Result => ({
  success,
  action: { id, type: 'kill_agent', target_id: 'agent-1', created_at: new Date(0).toISOString() },
  duration_ms: 1,
  ...(success ? {} : { error: 'agent is restarting; the fault cannot be applied' }),
});

describe('startLiveEvolution', () => {
  it('proposes a patch only for an applied fault whose target stayed unhealthy past the deadline', async () => {
    const events = createAsyncQueue<ArenaEvent>();
    const handled: string[] = [];
    let healthy = false;
    const live = startLiveEvolution({
      service: { subscribe: ({ signal }) => (signal?.addEventListener('abort', () => events.close()), events) },
      observer: {
        health: async () => ({ healthy, problems: healthy ? [] : ['agent-1 is stopped'] }),
        workload: async () => ({ requests: 0, succeeded: 0, failed: 0 }),
        checkInvariants: async () => [],
      },
      bridge: {
        handle: async (r: Result) => (handled.push(r.action.id), { proposal: {}, decision: { decision: 'applied' } }),
      } as unknown as ArenaEvolutionBridge,
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
