/**
 * The markers of §13.3 per trial (DESIGN §14): how far the values the quiet faults changed travelled
 * during each trial. The target's marker book counts, per fault, the later texts that carried a marker:
 * LLM requests (it entered the agent's context), tool calls (it drove an action), answers (it reached the
 * user; for trials, the task's answer). Trials run one at a time, so the texts seen while a trial was in
 * flight (from its request to its verdict) are that trial's, like a call with no header (./attribute.ts,
 * rule 3); texts seen between trials (a recovery probe, a late call) are counted as unattributed, never
 * given to a trial.
 */
import type { MarkerStage, MarkerTravel } from '../../protocol/markers.js';

export type MarkerCounts = Record<MarkerStage, number>;

const zero = (): MarkerCounts => ({ entered_context: 0, drove_action: 0, reached_user: 0 });

function totals(travel: readonly MarkerTravel[]): MarkerCounts {
  const out = zero();
  for (const t of travel) {
    out.entered_context += t.entered_context;
    out.drove_action += t.drove_action;
    out.reached_user += t.reached_user;
  }
  return out;
}

function minus(a: MarkerCounts, b: MarkerCounts): MarkerCounts {
  return {
    entered_context: a.entered_context - b.entered_context,
    drove_action: a.drove_action - b.drove_action,
    reached_user: a.reached_user - b.reached_user,
  };
}

export function addCounts(a: MarkerCounts, b: MarkerCounts): MarkerCounts {
  return {
    entered_context: a.entered_context + b.entered_context,
    drove_action: a.drove_action + b.drove_action,
    reached_user: a.reached_user + b.reached_user,
  };
}

export interface MarkerWatch {
  /** a trial starts: what was seen since the last one ended is nobody's */
  begin(): void;
  /** the trial's verdict is in: what was seen since begin() is its own */
  end(): MarkerCounts;
  /** sightings no trial was in flight for, up to now */
  unattributed(): MarkerCounts;
}

/** reads the target's marker book around each trial */
export function watchMarkers(read: () => readonly MarkerTravel[]): MarkerWatch {
  let last = totals(read());
  let lost = zero();
  return {
    begin() {
      const now = totals(read());
      lost = addCounts(lost, minus(now, last));
      last = now;
    },
    end() {
      const now = totals(read());
      const mine = minus(now, last);
      last = now;
      return mine;
    },
    unattributed() {
      const now = totals(read());
      lost = addCounts(lost, minus(now, last));
      last = now;
      return { ...lost };
    },
  };
}
