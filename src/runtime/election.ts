/**
 * Leader election among workers with leases. The leader renews its lease every
 * renew interval; a dead, paused or partitioned leader cannot, and when the
 * lease runs out the live worker with the longest uptime takes over. A lease
 * belongs to one incarnation: a resurrected agent starts as a follower.
 * With election off, leadership is static (the first worker) and nobody else
 * ever takes over.
 */
import type { Agent } from './agent.js';
import { isAlive, isReachable, type Cluster } from './cluster.js';

/** the current leader agent, if any */
export function currentLeader(cluster: Cluster): Agent | undefined {
  return cluster.leader ? cluster.agents.get(cluster.leader.id) : undefined;
}

/** can the leader do leader work right now (plan steps, lease renewals) */
export function leaderServing(cluster: Cluster): boolean {
  const leader = currentLeader(cluster);
  if (!leader || !isReachable(leader)) return false;
  if (!cluster.strategy.election.enabled) return true;
  return leader.restarts === cluster.leader!.incarnation && cluster.clock.now() < cluster.leader!.expiresAt;
}

export function electionTick(cluster: Cluster): void {
  const { clock, strategy } = cluster;
  const now = clock.now();
  if (!strategy.election.enabled) {
    // static leadership: the first worker, whatever its state
    const first = cluster.workers[0]!;
    if (cluster.leader?.id !== first.id)
      cluster.leader = {
        id: first.id,
        incarnation: first.restarts,
        expiresAt: Infinity,
        term: (cluster.leader?.term ?? 0) + 1,
      };
    return;
  }
  const lease = cluster.leader;
  if (lease) {
    const holder = cluster.agents.get(lease.id)!;
    if (now < lease.expiresAt) {
      // renewal is a message to the lease store: lost while the holder is partitioned, paused or dead
      if (isReachable(holder) && holder.restarts === lease.incarnation)
        lease.expiresAt = now + strategy.election.lease_ms;
      return;
    }
    cluster.log.record('leader_lost', `lease of term ${lease.term} expired`, lease.id);
    cluster.leader = undefined;
  }
  const candidates = cluster.workers.filter((w) => isReachable(w) && isAlive(cluster, w));
  if (candidates.length === 0) return;
  candidates.sort((a, b) => a.startedAt - b.startedAt || a.id.localeCompare(b.id, undefined, { numeric: true }));
  const winner = candidates[0]!;
  const term = (lease?.term ?? 0) + 1;
  cluster.leader = { id: winner.id, incarnation: winner.restarts, expiresAt: now + strategy.election.lease_ms, term };
  cluster.log.record('leader_elected', `elected for term ${term}${lease ? ` after ${lease.id}` : ''}`, winner.id);
}
