/**
 * The flight recorder: a timeline entry for every arena action and, for every
 * failed one, a diagnostic and a piece of failure evidence — all appended to an
 * event store (memory or SQLite), so `arena flight` can read them after the run.
 * It is the arena's FlightBridge: `new ArenaService({ flightBridge: recorder, … })`.
 */
import { randomUUID } from 'node:crypto';
import type { Result } from '../arena/action.js';
import type { FlightBridge, RecordContext } from '../arena/bridges.js';
import { ANY_VERSION, isQueryable, type DataCondition, type EventStore } from '../arena/event-store.js';
import { systemClock, type Clock } from '../shared/clock.js';
import { NotFoundError } from '../shared/errors.js';
import { DIAGNOSTIC_TABLE, diagnose, describeTarget, type FlightCategory } from './diagnostics.js';
import { filterRecords, toEventQuery } from './query.js';
import {
  EVIDENCE_STREAM,
  FLIGHT_DIAGNOSTICS_STREAM,
  FLIGHT_TIMELINE_STREAM,
  type DiagnosticRecord,
  type FailureEvidence,
  type FlightQuery,
  type TimelineRecord,
} from './records.js';

export interface FlightRecorderOptions {
  store: EventStore;
  clock?: Clock;
  /** names this run in the records (default: a fresh id) */
  session?: string;
}

export interface FlightSummary {
  actions: number;
  failed: number;
  by_category: Record<string, { actions: number; failed: number }>;
  sessions: string[];
  first_at?: string;
  last_at?: string;
}

export class FlightRecorder implements FlightBridge {
  readonly store: EventStore;
  readonly session: string;
  private readonly clock: Clock;
  /** appends in the order results arrive, even when actions run in parallel */
  private chain: Promise<unknown> = Promise.resolve();

  constructor(options: FlightRecorderOptions) {
    this.store = options.store;
    this.clock = options.clock ?? systemClock;
    this.session = options.session ?? randomUUID().slice(0, 8);
  }

  record(result: Result, context: RecordContext = {}): Promise<void> {
    const next = this.chain.then(() => this.write(result, context));
    // one failed append must not wedge every later one
    this.chain = next.catch(() => undefined);
    return next;
  }

  /** resolves when every record handed in so far is stored */
  async flush(): Promise<void> {
    await this.chain;
  }

  async timeline(query: FlightQuery = {}): Promise<TimelineRecord[]> {
    return this.query<TimelineRecord>(FLIGHT_TIMELINE_STREAM, query);
  }

  async diagnostics(query: FlightQuery = {}): Promise<DiagnosticRecord[]> {
    return this.query<DiagnosticRecord>(FLIGHT_DIAGNOSTICS_STREAM, query);
  }

  async evidence(query: FlightQuery = {}): Promise<FailureEvidence[]> {
    return this.query<FailureEvidence>(EVIDENCE_STREAM, query, [
      { fields: ['source'], equals: 'chaos' },
      { fields: ['kind'], equals: 'failure' },
    ]);
  }

  /** one timeline record by action id */
  async getRecord(id: string): Promise<TimelineRecord> {
    const [found] = await this.query<TimelineRecord>(FLIGHT_TIMELINE_STREAM, {}, [{ fields: ['id'], equals: id }]);
    if (!found) throw new NotFoundError(`no flight record for action ${id}`);
    return found;
  }

  async summary(query: FlightQuery = {}): Promise<FlightSummary> {
    const records = await this.timeline(query);
    const by_category: FlightSummary['by_category'] = {};
    for (const r of records) {
      const c = (by_category[r.category] ??= { actions: 0, failed: 0 });
      c.actions += 1;
      if (isProblem(r)) c.failed += 1;
    }
    return {
      actions: records.length,
      failed: records.filter(isProblem).length,
      by_category,
      sessions: [...new Set(records.map((r) => r.session))],
      first_at: records[0]?.at,
      last_at: records[records.length - 1]?.at,
    };
  }

  private async write(result: Result, context: RecordContext): Promise<void> {
    const at = this.clock.wallNow().toISOString();
    const a = result.action;
    const agent_id = agentOf(result);
    const category: FlightCategory = DIAGNOSTIC_TABLE[a.type]?.category ?? 'process';
    const entry: TimelineRecord = {
      id: a.id,
      session: this.session,
      at,
      type: a.type,
      target_id: a.target_id,
      ...(a.source_id !== undefined ? { source_id: a.source_id } : {}),
      ...(agent_id !== undefined ? { agent_id } : {}),
      category,
      success: result.success,
      ...(context.expectFailure ? { expected_failure: true } : {}),
      ...(result.error !== undefined ? { error: result.error } : {}),
      duration_ms: result.duration_ms,
      ...(result.metadata ? { metadata: result.metadata } : {}),
      action: a,
    };
    await this.store.append(
      FLIGHT_TIMELINE_STREAM,
      [{ type: result.success ? 'flight.action' : 'flight.action.failed', data: entry }],
      ANY_VERSION,
    );
    // a failure the scenario asked for is its point, not a problem: no diagnostic, no failure evidence
    if (result.success || context.expectFailure) return;

    const d = diagnose(result);
    const diagnostic: DiagnosticRecord = {
      id: `diag-${a.id}`,
      action_id: a.id,
      session: this.session,
      at,
      type: a.type,
      target_id: a.target_id,
      ...(agent_id !== undefined ? { agent_id } : {}),
      ...(result.error !== undefined ? { error: result.error } : {}),
      ...d,
    };
    const evidence: FailureEvidence = {
      id: `evidence-${a.id}`,
      source: 'chaos',
      kind: 'failure',
      action_id: a.id,
      session: this.session,
      at,
      ...(agent_id !== undefined ? { agent_id } : {}),
      summary: `${a.type} on ${describeTarget(result)} failed: ${result.error ?? 'unknown error'}`,
      data: {
        action: a,
        ...(result.error !== undefined ? { error: result.error } : {}),
        category: d.category,
        root_cause: d.root_cause,
      },
    };
    await this.store.append(FLIGHT_DIAGNOSTICS_STREAM, [{ type: 'flight.diagnostic', data: diagnostic }], ANY_VERSION);
    await this.store.append(EVIDENCE_STREAM, [{ type: 'evidence.failure', data: evidence }], ANY_VERSION);
  }

  /** in the store's database when it can (indexed SQL), else by filtering the whole stream */
  private async query<T extends { at: string }>(
    stream: string,
    query: FlightQuery,
    extra: DataCondition[] = [],
  ): Promise<T[]> {
    const now = this.clock.wallNow();
    if (isQueryable(this.store))
      return (await this.store.queryEvents(toEventQuery(stream, query, now, extra))).map((e) => e.data as T);
    const all = (await this.store.read(stream)).map((e) => e.data as T & Record<string, unknown>);
    const kept = all.filter((r) => extra.every((c) => c.fields.some((f) => r[f] === c.equals)));
    return filterRecords(kept, query, now);
  }
}

/** a failed action that was not meant to fail */
function isProblem(r: TimelineRecord): boolean {
  return !r.success && r.expected_failure !== true;
}

/** which agent a result concerns: the killed leader/orchestrator, or the named agent */
function agentOf(result: Result): string | undefined {
  const m = result.metadata ?? {};
  if (typeof m.killed_leader_id === 'string') return m.killed_leader_id;
  if (typeof m.killed_orchestrator_id === 'string') return m.killed_orchestrator_id;
  const a = result.action;
  if (a.type === 'remove_node' || a.type === 'remove_edge') return undefined;
  return a.target_id || undefined;
}
