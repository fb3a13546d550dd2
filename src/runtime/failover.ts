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

export function failoverTick(cluster: Cluster): void {
  if (!cluster.strategy.failover.enabled) {
    cluster.activeOrchestratorId = cluster.orchestrators[0]!.id;
    return;
  }
  const active = cluster.activeOrchestratorId ? cluster.agents.get(cluster.activeOrchestratorId) : undefined;
  if (active && isAlive(cluster, active)) return;
  const standby = cluster.orchestrators.find((o) => o !== active && isReachable(o) && isAlive(cluster, o));
  if (!standby) return;
  const previous = cluster.activeOrchestratorId;
  cluster.activeOrchestratorId = standby.id;
  cluster.orchestratorEpoch++;
  cluster.log.record('orchestrator_failover', `took over from ${previous ?? 'nobody'} (epoch ${cluster.orchestratorEpoch})`, standby.id);
}
