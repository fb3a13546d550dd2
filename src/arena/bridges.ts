/**
 * Where the arena hands its results on. The flight recorder and the evolution
 * loop live elsewhere (src/flight, src/evolution) and implement these; the
 * arena only calls them. A bridge that throws never breaks an injection.
 */
import type { Action, Result } from './action.js';
import type { ActiveFault, AgentInfo } from './providers.js';

/** Receives every result: the flight recorder's timeline of arena actions. */
export interface FlightBridge {
  record(result: Result, context?: RecordContext): void | Promise<void>;
}

/** what the caller meant by an action: a scenario step marked `expect_failure` is meant to fail */
export interface RecordContext {
  expectFailure?: boolean;
}

/** Receives failed injections: the evolution loop learns from them. */
export interface EvolutionBridge {
  onFailure(result: Result): void | Promise<void>;
}

/** What the target looked like just before and just after a fault. */
export interface Evidence {
  action_id: string;
  action: Action;
  success: boolean;
  at: string;
  before: { agents: AgentInfo[]; faults: ActiveFault[] };
  after: { agents: AgentInfo[]; faults: ActiveFault[] };
}

/** Keeps evidence per action, for audits and post-mortems. */
export interface EvidenceStore {
  save(evidence: Evidence): void | Promise<void>;
  get?(actionId: string): Evidence | undefined | Promise<Evidence | undefined>;
}
