/**
 * Memory upkeep: periodic checkpoints, and the integrity check that restores a
 * damaged memory from its last checkpoint and replays the journal of writes
 * acknowledged since, so no acknowledged write is lost to the repair.
 */
import type { Agent } from './agent.js';
import type { Cluster } from './cluster.js';

/** journal entries kept when no checkpoint truncates it */
const JOURNAL_LIMIT = 5000;

export function journalWrite(agent: Agent, key: string, value: unknown): void {
  agent.journal.push([key, value]);
  if (agent.journal.length > JOURNAL_LIMIT) agent.journal.shift();
}

export function checkpointTick(cluster: Cluster): void {
  if (!cluster.strategy.checkpoints.enabled) return;
  for (const agent of cluster.agents.values()) {
    // never checkpoint damage: a corrupted memory waits for the integrity check
    if (agent.state === 'stopped' || agent.state === 'failed' || !agent.memory.verify().ok) continue;
    agent.memory.checkpoint();
    agent.journal = [];
  }
}

export function integrityTick(cluster: Cluster): void {
  if (!cluster.strategy.integrity.enabled) return;
  for (const agent of cluster.agents.values()) ensureIntegrity(cluster, agent);
}

/** verifies the agent's memory and repairs it when integrity checking is on; true when the memory is sound afterwards */
export function ensureIntegrity(cluster: Cluster, agent: Agent): boolean {
  const check = agent.memory.verify();
  if (check.ok) return true;
  if (!cluster.strategy.integrity.enabled) return false;
  cluster.log.record('memory_corruption_detected', check.problems.slice(0, 3).join('; '), agent.id);
  return restoreMemory(cluster, agent);
}

export function restoreMemory(cluster: Cluster, agent: Agent): boolean {
  const { memory } = agent;
  const fromCheckpoint = memory.restoreFromCheckpoint();
  if (!fromCheckpoint) for (const [key] of memory.entries()) memory.delete(key);
  // entries planted by the fault are not covered by the checksum: drop them
  for (const problem of memory.verify().problems) {
    const key = /entry "(.*)" is not covered/.exec(problem)?.[1];
    if (key !== undefined) memory.delete(key);
  }
  for (const [key, value] of agent.journal) memory.set(key, value);
  const ok = memory.verify().ok;
  cluster.log.record(
    'memory_restored',
    `${fromCheckpoint ? 'restored the last checkpoint' : 'no checkpoint: rebuilt from the journal'} and replayed ${agent.journal.length} journaled writes${ok ? '' : ' (still failing verification)'}`,
    agent.id,
  );
  return ok;
}
