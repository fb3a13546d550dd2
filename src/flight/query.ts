/** Filtering flight records by time, agent, category, type, outcome and session. */
import { UsageError } from '../shared/errors.js';
import { tryParseDuration } from '../shared/duration.js';
import { ACTION_TYPES, isActionType } from '../arena/action.js';
import { FLIGHT_CATEGORIES } from './diagnostics.js';
import type { FlightQuery } from './records.js';
import type { DataCondition, EventQuery } from '../arena/event-store.js';

interface Filterable {
  at: string;
  agent_id?: string;
  target_id?: string;
  category?: string;
  type?: string;
  success?: boolean;
  session?: string;
}

/** a bound in epoch ms: an ISO time, a Date, or a duration back from `now` */
export function resolveTimeBound(
  value: string | number | Date | undefined,
  now: Date,
  name: string,
): number | undefined {
  if (value === undefined || value === '') return undefined;
  if (value instanceof Date) return value.getTime();
  const ago = tryParseDuration(value);
  if (ago !== undefined) return now.getTime() - ago;
  if (typeof value === 'string') {
    const t = Date.parse(value);
    if (!Number.isNaN(t)) return t;
  }
  throw new UsageError(`${name}: ${JSON.stringify(value)} is neither a duration ("10m", "1h") nor an ISO time`, {
    code: 'invalid_query',
  });
}

export function validateQuery(query: FlightQuery): void {
  if (query.category !== undefined && !(FLIGHT_CATEGORIES as readonly string[]).includes(query.category)) {
    throw new UsageError(
      `category: unknown category ${JSON.stringify(query.category)} (one of ${FLIGHT_CATEGORIES.join(', ')})`,
      { code: 'invalid_query' },
    );
  }
  // a misspelt type would otherwise quietly match nothing
  if (query.type !== undefined && !isActionType(query.type)) {
    throw new UsageError(
      `type: unknown action type ${JSON.stringify(query.type)} (one of ${ACTION_TYPES.join(', ')})`,
      { code: 'invalid_query' },
    );
  }
  if (query.limit !== undefined && !(Number.isInteger(query.limit) && query.limit > 0)) {
    throw new UsageError(`limit: must be a positive integer, got ${JSON.stringify(query.limit)}`, {
      code: 'invalid_query',
    });
  }
}

export function filterRecords<T extends Filterable>(records: T[], query: FlightQuery, now: Date): T[] {
  validateQuery(query);
  const since = resolveTimeBound(query.since, now, 'since');
  const until = resolveTimeBound(query.until, now, 'until');
  let out = records.filter((r) => {
    const t = Date.parse(r.at);
    if (since !== undefined && t < since) return false;
    if (until !== undefined && t > until) return false;
    if (query.agent !== undefined && r.agent_id !== query.agent && r.target_id !== query.agent) return false;
    if (query.category !== undefined && r.category !== query.category) return false;
    if (query.type !== undefined && r.type !== query.type) return false;
    if (query.success !== undefined && r.success !== undefined && r.success !== query.success) return false;
    if (query.session !== undefined && r.session !== query.session) return false;
    return true;
  });
  if (query.limit !== undefined && out.length > query.limit) out = out.slice(out.length - query.limit);
  return out;
}

/**
 * The same filter as `filterRecords`, as a store query (run as indexed SQL by
 * the SQLite and PostgreSQL stores): time bounds become ISO strings, which
 * compare like the times they name (records' `at` come from toISOString).
 */
export function toEventQuery(streamId: string, query: FlightQuery, now: Date, extra: DataCondition[] = []): EventQuery {
  validateQuery(query);
  const since = resolveTimeBound(query.since, now, 'since');
  const until = resolveTimeBound(query.until, now, 'until');
  const where: DataCondition[] = [...extra];
  if (query.agent !== undefined) where.push({ fields: ['agent_id', 'target_id'], equals: query.agent });
  if (query.category !== undefined) where.push({ fields: ['category'], equals: query.category });
  if (query.type !== undefined) where.push({ fields: ['type'], equals: query.type });
  if (query.success !== undefined) where.push({ fields: ['success'], equals: query.success, orMissing: true });
  if (query.session !== undefined) where.push({ fields: ['session'], equals: query.session });
  return {
    stream_id: streamId,
    ...(where.length > 0 ? { where } : {}),
    ...(since !== undefined ? { since: isoBound(since, 'since') } : {}),
    ...(until !== undefined ? { until: isoBound(until, 'until') } : {}),
    ...(query.limit !== undefined ? { last: query.limit } : {}),
  };
}

function isoBound(ms: number, name: string): string {
  const d = new Date(ms);
  if (Number.isNaN(d.getTime())) throw new UsageError(`${name}: out of range`, { code: 'invalid_query' });
  return d.toISOString();
}
