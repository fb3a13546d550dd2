/**
 * What an LLM or MCP proxy saw of one call, kept in a bounded ledger so that
 * trials (DESIGN §14) can say which calls each trial made, what they cost and
 * how they ended. The proxies only record; attributing a call to a trial is
 * the reader's job, and a call it cannot attribute is counted as such.
 */
export type CallKind = 'llm' | 'tool';

export interface CallRecord {
  /** increasing per ledger: read `since` the last one seen */
  seq: number;
  kind: CallKind;
  /** the agent whose proxy saw the call, when the proxy belongs to one */
  agent?: string;
  /** epoch milliseconds */
  started_ms: number;
  ended_ms: number;
  /** the `x-arena-trial` header the agent forwarded, if any */
  trial?: string;
  /** the trace id of the call's W3C `traceparent`, if any */
  trace_id?: string;
  /** the `x-arena-client` header, if any */
  client?: string;
  /** the call succeeded as the agent saw it: a 2xx LLM answer, a tool result without isError */
  ok: boolean;
  /** the arena changed or failed this call (a fault acted on it) */
  faulted: boolean;
  /** tool calls: the tool's name and a hash of its canonical JSON arguments */
  tool?: string;
  args_hash?: string;
  /** LLM calls: the model the answer names (or the request asked for) and the answer's `usage` */
  model?: string;
  tokens?: { input: number; output: number };
}

/** Reads a proxy's ledger: records with seq > since, oldest first; `dropped` counts records the bound evicted. */
export interface CallLedgerReader {
  calls(since?: number): { records: CallRecord[]; next: number; dropped: number };
}

/** A call as a recorder hands it in; the ledger numbers it. */
export type NewCall = Omit<CallRecord, 'seq'>;

export interface CallLedger extends CallLedgerReader {
  record(call: NewCall): CallRecord;
}

/**
 * The one ledger implementation: the last `capacity` calls in memory (a long run must not grow
 * without bound), numbered from 1; a reader that falls behind learns how many it missed.
 */
export function createCallLedger(capacity = 10_000): CallLedger {
  const kept: CallRecord[] = [];
  let seq = 0;
  return {
    record(call) {
      const record = { seq: ++seq, ...call };
      kept.push(record);
      if (kept.length > capacity) kept.shift();
      return record;
    },
    calls(since = 0) {
      const records = kept.filter((r) => r.seq > since);
      // records after `since` that the bound evicted before this read
      const oldest = kept[0]?.seq ?? seq + 1;
      return { records, next: seq, dropped: Math.max(0, oldest - 1 - since) };
    },
  };
}
