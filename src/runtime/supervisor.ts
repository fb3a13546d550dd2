/**
 * The supervisor resurrects killed agents: after a backoff that doubles with
 * each restart inside the window, within a restart budget. Past the budget the
 * agent is marked failed and left down (a crash loop must not spin forever).
 */
import type { TimerHandle } from '../shared/clock.js';
import type { Agent } from './agent.js';
import type { Cluster } from './cluster.js';

export interface Supervisor {
  /** called when an agent dies; schedules its resurrection when the supervisor is on */
  noticeDeath(agent: Agent): void;
  /** picks up agents left stopped (e.g. killed while the supervisor was off) */
  sweep(): void;
  stop(): void;
}

export function createSupervisor(cluster: Cluster): Supervisor {
  const pending = new Map<string, TimerHandle>();
  const history = new Map<string, number[]>();

  const schedule = (agent: Agent) => {
    const s = cluster.strategy.supervisor;
    if (!s.enabled || pending.has(agent.id) || agent.state !== 'stopped') return;
    const now = cluster.clock.now();
    const recent = (history.get(agent.id) ?? []).filter((t) => now - t < s.window_ms);
    history.set(agent.id, recent);
    if (recent.length >= s.max_restarts) {
      agent.state = 'failed';
      cluster.log.record(
        'agent_failed',
        `restart budget spent: ${recent.length} restarts within ${s.window_ms}ms`,
        agent.id,
      );
      return;
    }
    const backoff = Math.min(s.max_backoff_ms, s.backoff_ms * 2 ** recent.length);
    agent.state = 'restarting';
    pending.set(
      agent.id,
      cluster.clock.setTimer(backoff, () => {
        pending.delete(agent.id);
        if (!cluster.running || agent.state !== 'restarting') return;
        history.get(agent.id)!.push(cluster.clock.now());
        agent.restart(cluster.buildSubsystems(agent));
        cluster.log.record(
          'agent_restarted',
          `resurrected after ${backoff}ms backoff (restart ${agent.restarts})`,
          agent.id,
        );
      }),
    );
  };

  return {
    noticeDeath: schedule,
    sweep() {
      for (const agent of cluster.agents.values()) if (agent.state === 'stopped') schedule(agent);
    },
    stop() {
      for (const handle of pending.values()) handle.cancel();
      pending.clear();
    },
  };
}
