/**
 * Heartbeats and orchestrator failover. Every running, connected agent
 * heartbeats each interval; the standby orchestrator takes over when the
 * active one has been silent past the heartbeat timeout. With failover off the
 * first orchestrator stays active whatever happens to it.
 */
import { isAlive, isReachable, type Cluster } from './cluster.js';

export function heartbeatTick(cluster: Cluster): void {
  const now = cluster.clock.now();
  for (const agent of cluster.agents.values()) if (isReachable(agent)) agent.lastHeartbeatAt = now;
}

/**
 * The active role belongs to one incarnation and is kept alive by its
 * heartbeats: a killed orchestrator's role is not inherited by its resurrected
 * self, so the standby takes over once the heartbeat timeout has passed.
 */
export function failoverTick(cluster: Cluster): void {
  const now = cluster.clock.now();
  if (!cluster.strategy.failover.enabled) {
    const first = cluster.orchestrators[0]!;
    cluster.activeOrchestratorId = first.id;
    cluster.activeOrchestrator = { incarnation: first.restarts, renewedAt: now };
    return;
  }
  const active = cluster.activeOrchestratorId ? cluster.agents.get(cluster.activeOrchestratorId) : undefined;
  const role = cluster.activeOrchestrator;
  if (active && role) {
    if (isReachable(active) && active.restarts === role.incarnation) role.renewedAt = now;
    if (now - role.renewedAt <= cluster.strategy.failover.heartbeat_timeout_ms) return;
  }
  const standby = cluster.orchestrators.find((o) => o !== active && isReachable(o) && isAlive(cluster, o));
  if (!standby) return;
  const previous = cluster.activeOrchestratorId;
  cluster.activeOrchestratorId = standby.id;
  cluster.activeOrchestrator = { incarnation: standby.restarts, renewedAt: now };
  cluster.orchestratorEpoch++;
  cluster.log.record(
    'orchestrator_failover',
    `took over from ${previous ?? 'nobody'} (epoch ${cluster.orchestratorEpoch})`,
    standby.id,
  );
}
