/**
 * What the workload has observed: request counters, recent runs with their
 * expected and actual outputs, memory writes applied and acknowledged, and
 * effects applied per run. The consistency invariants are checked against it.
 */
import type { Agent } from './agent.js';
import { sameValue } from './steady-state.js';

export interface RunRecord {
  run: number;
  ok: boolean;
  status: string;
  worker?: string;
  error?: string;
  /** completed but with an output different from the expected one */
  mismatch: boolean;
  duration_ms: number;
  finished_at_ms: number;
}

export interface WorkloadStats {
  requests: number;
  succeeded: number;
  failed: number;
  /** completed runs whose output differed from the expected output (counted in `failed`) */
  mismatched: number;
  in_flight: number;
  mean_latency_ms: number;
}

export interface Write {
  run: number;
  value: unknown;
}

/** told each workload run as it starts and as it ends (a measurement counts the runs sent in its window) */
export interface RunWatcher {
  started(run: number): void;
  finished(record: RunRecord): void;
}

export interface Ledger {
  stats(): WorkloadStats;
  recent(limit?: number): RunRecord[];
  started(run: number): void;
  finished(record: RunRecord): void;
  /** returns the function that stops watching */
  watch(watcher: RunWatcher): () => void;
  /** a write that reached the agent's memory */
  applied(agentId: string, key: string, write: Write): void;
  /** a write the agent confirmed back to the orchestrator */
  acknowledged(agentId: string, key: string, write: Write): void;
  lastApplied(agentId: string): { key: string; write: Write } | undefined;
  /** has the run's effect (its answer write) already been applied */
  hasEffect(run: number): boolean;
  /** counts one application of the run's effect */
  recordEffect(run: number): void;
  effectCount(run: number): number;
  /** acknowledged writes whose value is no longer readable (superseded writes are skipped) */
  unreadableAcks(agents: Map<string, Agent>): string[];
  duplicatedEffects(): number[];
}

export function createLedger(recentLimit = 500): Ledger {
  const counters = { requests: 0, succeeded: 0, failed: 0, mismatched: 0, in_flight: 0, latency_total: 0 };
  const runs: RunRecord[] = [];
  const applied = new Map<string, Map<string, Write>>();
  const last = new Map<string, { key: string; write: Write }>();
  const acked = new Map<string, Map<string, Write>>();
  const effects = new Map<number, number>();
  const watchers = new Set<RunWatcher>();
  const perAgent = (m: Map<string, Map<string, Write>>, id: string) => m.get(id) ?? m.set(id, new Map()).get(id)!;

  return {
    stats: () => ({
      requests: counters.requests,
      succeeded: counters.succeeded,
      failed: counters.failed,
      mismatched: counters.mismatched,
      in_flight: counters.in_flight,
      mean_latency_ms: counters.requests ? counters.latency_total / counters.requests : 0,
    }),
    recent: (limit = 50) => runs.slice(-limit),
    started(run) {
      counters.in_flight++;
      for (const w of watchers) w.started(run);
    },
    watch(watcher) {
      watchers.add(watcher);
      return () => watchers.delete(watcher);
    },
    finished(record) {
      for (const w of watchers) w.finished(record);
      counters.in_flight--;
      counters.requests++;
      counters.latency_total += record.duration_ms;
      if (record.ok) counters.succeeded++;
      else counters.failed++;
      if (record.mismatch) counters.mismatched++;
      runs.push(record);
      if (runs.length > recentLimit) runs.shift();
    },
    applied(agentId, key, write) {
      perAgent(applied, agentId).set(key, write);
      last.set(agentId, { key, write });
    },
    acknowledged(agentId, key, write) {
      perAgent(acked, agentId).set(key, write);
    },
    lastApplied: (agentId) => last.get(agentId),
    hasEffect: (run) => effects.has(run),
    recordEffect(run) {
      effects.set(run, (effects.get(run) ?? 0) + 1);
      // forget old runs; their effects can no longer be retried
      if (effects.size > 10_000) effects.delete(effects.keys().next().value!);
    },
    effectCount: (run) => effects.get(run) ?? 0,
    unreadableAcks(agents) {
      const problems: string[] = [];
      for (const [agentId, writes] of acked) {
        const memory = agents.get(agentId)?.memory;
        for (const [key, write] of writes) {
          if (applied.get(agentId)?.get(key)?.run !== write.run) continue; // a later write replaced it
          const value = memory?.get(key);
          if (!sameValue(value, write.value)) problems.push(`${agentId} ${key} (run ${write.run})`);
        }
      }
      return problems;
    },
    duplicatedEffects: () => [...effects].filter(([, n]) => n > 1).map(([run]) => run),
  };
}
