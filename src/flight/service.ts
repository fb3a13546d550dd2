/**
 * The flight recorder as the HTTP layer needs it (Flight routes and
 * GET /arena/flight/timeline|diagnostics): plain query objects in, JSON-ready
 * documents out, typed errors for bad input.
 */
import { randomUUID } from 'node:crypto';
import type { Action, Result } from '../arena/action.js';
import { ConflictError, UsageError } from '../shared/errors.js';
import type { FlightRecorder, FlightSummary } from './recorder.js';
import type { DiagnosticRecord, FlightQuery, TimelineRecord } from './records.js';

export interface FlightServiceOptions {
  /** runs an action against the live target (ArenaService.execute); replay is refused without it */
  execute?: (action: Action) => Promise<Result>;
  /** what is running on the target that a replay would disturb (a scenario, a survival run), if anything */
  busy?: () => string | undefined;
}

/** a replay runs its actions one after another: more than this in one request is refused, not started */
export const MAX_REPLAY = 1000;

/** the keys that select what a replay runs; one of them must be given */
export const REPLAY_SELECTORS = [
  'all',
  'ids',
  'since',
  'until',
  'agent',
  'category',
  'type',
  'session',
  'success',
  'failed_only',
  'limit',
] as const;

export interface TimelineDocument {
  count: number;
  records: TimelineRecord[];
}

export interface DiagnosticsDocument {
  count: number;
  diagnostics: DiagnosticRecord[];
  summary: FlightSummary;
}

export interface ReplayDocument {
  replayed: number;
  succeeded: number;
  results: Result[];
}

export class FlightService {
  constructor(
    readonly recorder: FlightRecorder,
    private readonly options: FlightServiceOptions = {},
  ) {}

  async timeline(query: Record<string, unknown> = {}): Promise<TimelineDocument> {
    const records = await this.recorder.timeline(toQuery(query));
    return { count: records.length, records };
  }

  record(id: string): Promise<TimelineRecord> {
    return this.recorder.getRecord(id);
  }

  async diagnostics(query: Record<string, unknown> = {}): Promise<DiagnosticsDocument> {
    const q = toQuery(query);
    const diagnostics = await this.recorder.diagnostics(q);
    return { count: diagnostics.length, diagnostics, summary: await this.recorder.summary({ ...q, limit: undefined }) };
  }

  /**
   * Runs recorded actions again, in their recorded order, each with a fresh id:
   * body `{all?: true, ids?: string[], since?, agent?, type?, failed_only?: boolean, limit?}`.
   * An empty request replays nothing: it is refused, since "replay everything"
   * has to be asked for (`all: true`) rather than be what garbage turns into.
   */
  async replay(request: Record<string, unknown> = {}, signal?: AbortSignal): Promise<ReplayDocument> {
    if (!this.options.execute)
      throw new UsageError('replay needs a live target: this flight recorder is read-only', {
        code: 'replay_unavailable',
      });
    for (const key of Object.keys(request)) {
      if (!(REPLAY_SELECTORS as readonly string[]).includes(key))
        throw new UsageError(`${key}: unknown key (replay takes ${REPLAY_SELECTORS.join(', ')})`, {
          code: 'invalid_input',
        });
    }
    if (!REPLAY_SELECTORS.some((k) => request[k] !== undefined)) {
      throw new UsageError(
        'say what to replay: ids, a filter (since, until, agent, category, type, session, success, failed_only, limit) or all: true',
        { code: 'replay_selection_required' },
      );
    }
    if (request.all !== undefined && request.all !== true)
      throw new UsageError('all: must be true when given', { code: 'invalid_input' });
    const busy = this.options.busy?.();
    if (busy)
      throw new ConflictError(`${busy} is going on this target; replay recorded faults after it ends`, {
        code: 'arena_busy',
      });
    const ids = request.ids;
    if (ids !== undefined && !(Array.isArray(ids) && ids.every((i) => typeof i === 'string'))) {
      throw new UsageError('ids: must be an array of action ids', { code: 'invalid_input' });
    }
    if (request.failed_only !== undefined && typeof request.failed_only !== 'boolean') {
      throw new UsageError('failed_only: must be true or false', { code: 'invalid_input' });
    }
    const q = toQuery(request);
    let records = await this.recorder.timeline(q);
    if (ids) {
      const wanted = new Set(ids as string[]);
      records = records.filter((r) => wanted.has(r.id));
      const missing = (ids as string[]).filter((id) => !records.some((r) => r.id === id));
      if (missing.length > 0)
        throw new UsageError(`ids: no flight record for ${missing.join(', ')}`, { code: 'invalid_input' });
    }
    if (request.failed_only === true) records = records.filter((r) => !r.success);
    if (records.length > MAX_REPLAY) {
      throw new UsageError(
        `${records.length} recorded actions match; a replay runs at most ${MAX_REPLAY} (narrow it with limit or a filter)`,
        { code: 'replay_too_large' },
      );
    }
    const results: Result[] = [];
    for (const r of records) {
      if (signal?.aborted) break;
      const action: Action = { ...r.action, id: randomUUID(), created_at: new Date().toISOString() };
      results.push(await this.options.execute(action));
    }
    return { replayed: results.length, succeeded: results.filter((r) => r.success).length, results };
  }
}

/** query-string or JSON values → a FlightQuery, rejecting what cannot be one */
export function toQuery(input: Record<string, unknown>): FlightQuery {
  const q: FlightQuery = {};
  const str = (key: string): string | undefined => {
    const v = input[key];
    if (v === undefined || v === null || v === '') return undefined;
    if (typeof v !== 'string' && typeof v !== 'number')
      throw new UsageError(`${key}: must be a string`, { code: 'invalid_query' });
    return String(v);
  };
  const since = str('since');
  if (since !== undefined) q.since = since;
  const until = str('until');
  if (until !== undefined) q.until = until;
  const agent = str('agent');
  if (agent !== undefined) q.agent = agent;
  const category = str('category');
  if (category !== undefined) q.category = category;
  const type = str('type');
  if (type !== undefined) q.type = type;
  const session = str('session');
  if (session !== undefined) q.session = session;
  const limit = str('limit');
  if (limit !== undefined) {
    const n = Number(limit);
    if (!Number.isInteger(n) || n <= 0)
      throw new UsageError(`limit: must be a positive integer, got ${JSON.stringify(input.limit)}`, {
        code: 'invalid_query',
      });
    q.limit = n;
  }
  const success = input.success;
  if (success !== undefined) {
    if (success === true || success === 'true') q.success = true;
    else if (success === false || success === 'false') q.success = false;
    else throw new UsageError('success: must be true or false', { code: 'invalid_query' });
  }
  return q;
}
