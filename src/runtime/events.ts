/**
 * Recovery events with timestamps: what the runtime did to heal itself
 * (restarts, elections, failovers, restores). Kept in a bounded ring so a
 * long survival run does not grow memory without end.
 */
import type { Clock } from '../shared/clock.js';

export type RecoveryEventKind =
  | 'agent_killed'
  | 'agent_restarted'
  | 'agent_failed'
  | 'leader_lost'
  | 'leader_elected'
  | 'orchestrator_failover'
  | 'memory_corruption_detected'
  | 'memory_restored'
  | 'dag_damaged'
  | 'dag_restored'
  | 'mcp_reconnected';

export interface RecoveryEvent {
  seq: number;
  kind: RecoveryEventKind;
  /** clock time in ms */
  at_ms: number;
  /** ISO wall-clock time */
  at: string;
  agent_id?: string;
  detail: string;
}

export interface RecoveryLog {
  record(kind: RecoveryEventKind, detail: string, agentId?: string): RecoveryEvent;
  list(since?: number): RecoveryEvent[];
  subscribe(listener: (event: RecoveryEvent) => void): () => void;
}

export function createRecoveryLog(clock: Clock, limit = 1000): RecoveryLog {
  const events: RecoveryEvent[] = [];
  const listeners = new Set<(event: RecoveryEvent) => void>();
  let seq = 0;
  return {
    record(kind, detail, agentId) {
      const event: RecoveryEvent = {
        seq: ++seq,
        kind,
        at_ms: clock.now(),
        at: clock.wallNow().toISOString(),
        detail,
        ...(agentId ? { agent_id: agentId } : {}),
      };
      events.push(event);
      if (events.length > limit) events.shift();
      for (const listener of listeners) {
        try {
          listener(event);
        } catch {
          // a broken listener must not stop recovery
        }
      }
      return event;
    },
    list: (since = 0) => events.filter((e) => e.seq > since),
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
