/**
 * Which trial made each LLM or tool call the target's proxies recorded (DESIGN §14), in this order:
 * 1. the `x-arena-trial` header the agent forwarded names a trial of this run;
 * 2. the trace id of its W3C `traceparent` is a trial's own (the arena gives each trial a fresh trace);
 * 3. no header at all, and exactly one trial was in flight when the call started (trials run one at a
 *    time, so a call made during a trial by an agent that forwards nothing is that trial's).
 * Anything else (a header naming no trial of this run, a call between trials: a recovery probe, some
 * other client) is unattributed and counted as such, never guessed.
 */
import type { CallRecord } from '../../protocol/calls.js';

export interface TrialWindow {
  id: string;
  trace_id: string;
  started_ms: number;
  ended_ms: number;
}

export interface Attribution {
  byTrial: Map<string, CallRecord[]>;
  unattributed: CallRecord[];
}

export function attributeCalls(records: readonly CallRecord[], trials: readonly TrialWindow[]): Attribution {
  const byId = new Map(trials.map((t) => [t.id, t]));
  const byTrace = new Map(trials.map((t) => [t.trace_id, t]));
  const byTrial = new Map<string, CallRecord[]>(trials.map((t) => [t.id, []]));
  const unattributed: CallRecord[] = [];
  for (const record of records) {
    const owner = ownerOf(record, byId, byTrace, trials);
    if (owner) byTrial.get(owner.id)!.push(record);
    else unattributed.push(record);
  }
  return { byTrial, unattributed };
}

function ownerOf(
  record: CallRecord,
  byId: Map<string, TrialWindow>,
  byTrace: Map<string, TrialWindow>,
  trials: readonly TrialWindow[],
): TrialWindow | undefined {
  // a header that names something is believed or refused, never overridden by timing
  if (record.trial !== undefined) return byId.get(record.trial);
  if (record.trace_id !== undefined) return byTrace.get(record.trace_id);
  const inFlight = trials.filter((t) => t.started_ms <= record.started_ms && record.started_ms <= t.ended_ms);
  return inFlight.length === 1 ? inFlight[0] : undefined;
}
