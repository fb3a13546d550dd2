/**
 * The shared state of one runtime: its agents, who leads, which orchestrator
 * is active, and the network between them. Recovery mechanisms (supervisor,
 * election, failover, maintenance) and the workload all work on this.
 */
import type { Clock, TimerHandle } from '../shared/clock.js';
import type { Random } from '../shared/random.js';
import { NotFoundError } from '../shared/errors.js';
import { linkSignals } from '../shared/signals.js';
import type { Agent } from './agent.js';
import type { RecoveryLog } from './events.js';
import type { Strategy } from './strategy.js';
import type { AgentSubsystems } from './subsystems.js';

export interface Cluster {
  clock: Clock;
  random: Random;
  /** the strategy in force; read at every decision so updates apply live */
  strategy: Strategy;
  agents: Map<string, Agent>;
  workers: Agent[];
  orchestrators: Agent[];
  log: RecoveryLog;
  leader?: {
    id: string /** the incarnation (restart count) that holds the lease */;
    incarnation: number;
    expiresAt: number;
    term: number;
  };
  activeOrchestratorId?: string;
  /** the incarnation (restart count) of the active orchestrator that holds the role, and when it last renewed it */
  activeOrchestrator?: { incarnation: number; renewedAt: number };
  orchestratorEpoch: number;
  /** builds an agent's subsystems (fresh on each restart) */
  buildSubsystems(agent: { id: string }): AgentSubsystems;
  running: boolean;
}

export function getAgent(cluster: Cluster, id: string): Agent {
  const agent = cluster.agents.get(id);
  if (!agent)
    throw new NotFoundError(`unknown agent "${id}" (agents: ${[...cluster.agents.keys()].join(', ')})`, {
      code: 'unknown_agent',
    });
  return agent;
}

/** up and reachable right now: running (not paused, stopped, restarting, failed) and not partitioned */
export function isReachable(agent: Agent): boolean {
  return agent.state === 'running' && !agent.partitioned;
}

/**
 * What the failure detector believes: a heartbeat arrived within the heartbeat
 * timeout. It knows nothing else, so a death is noticed only after the timeout.
 */
export function isAlive(cluster: Cluster, agent: Agent): boolean {
  return cluster.clock.now() - agent.lastHeartbeatAt <= cluster.strategy.failover.heartbeat_timeout_ms;
}

/**
 * Sends a task to an agent over the cluster network. A message to or from a
 * partitioned agent is dropped: the sender hears nothing and waits until its
 * own signal gives up, exactly like a lost packet.
 */
export function send<T>(
  from: Agent | undefined,
  to: Agent,
  fn: (signal: AbortSignal) => Promise<T>,
  signal: AbortSignal,
): Promise<T> {
  if (to.partitioned || from?.partitioned) {
    return new Promise<T>((_, reject) => {
      if (signal.aborted) return reject(signal.reason);
      signal.addEventListener('abort', () => reject(signal.reason), { once: true });
    });
  }
  return to.submit(async (loopSignal) => {
    const linked = linkSignals(loopSignal, signal);
    try {
      return await fn(linked.signal);
    } finally {
      linked.dispose();
    }
  }, signal);
}

/** a repeating timer whose interval is re-read from the strategy each time, so updates apply live */
export function every(cluster: Cluster, intervalMs: () => number, tick: () => void): TimerHandle {
  let handle: TimerHandle | undefined;
  let cancelled = false;
  const arm = () => {
    if (cancelled) return;
    handle = cluster.clock.setTimer(Math.max(1, intervalMs()), () => {
      if (cancelled || !cluster.running) return;
      try {
        tick();
      } finally {
        arm();
      }
    });
  };
  arm();
  return {
    cancel() {
      cancelled = true;
      handle?.cancel();
    },
  };
}
