/**
 * Record queries (EventQuery) as SQL, for the SQLite and PostgreSQL stores.
 * The flight recorder's streams hold records with `at`, `agent_id`,
 * `target_id`, `category`, `type` and `session` fields; both stores index
 * those fields on those streams (partial expression indexes), so `arena
 * flight --agent … --since …` is an index lookup, not a scan of the stream.
 */
import { assertFieldName, type EventQuery } from '../arena/event-store.js';

/** the streams whose records are indexed (written by src/flight) */
export const RECORD_STREAMS = ['flight.timeline', 'flight.diagnostics', 'evidence'] as const;
/** the record fields indexed on them */
export const RECORD_FIELDS = ['at', 'agent_id', 'target_id', 'category', 'type', 'session'] as const;

/** a SQL string literal (standard_conforming_strings: only quotes need doubling) */
export function sqlLiteral(text: string): string {
  if (text.includes('\0')) throw new TypeError('a stream id cannot hold a NUL character');
  return `'${text.replace(/'/g, "''")}'`;
}

export interface SqlDialect {
  /** the field's value as text (for `at`) */
  text(field: string): string;
  /** a condition: the field equals the value with its JSON type (`push` adds a parameter, returns its placeholder) */
  equals(field: string, value: string | boolean, push: (v: unknown) => string): string;
  isNull(field: string): string;
}

/**
 * The WHERE clause of a record query. The stream id is inlined as a literal:
 * both databases use a partial index only when they can see the value at
 * planning time.
 */
export function recordWhere(query: EventQuery, dialect: SqlDialect, push: (v: unknown) => string): string {
  const stream = `stream_id = ${sqlLiteral(query.stream_id)}`;
  const where = [stream];
  if (query.types && query.types.length > 0) where.push(`type IN (${query.types.map((t) => push(t)).join(', ')})`);
  for (const c of query.where ?? []) {
    c.fields.forEach(assertFieldName);
    // the stream in each branch too: so each one can use its (stream_id, field) index (a union of lookups)
    const any = c.fields.map((f) =>
      c.fields.length > 1 ? `(${stream} AND ${dialect.equals(f, c.equals, push)})` : dialect.equals(f, c.equals, push),
    );
    if (c.orMissing) any.push(`(${c.fields.map((f) => dialect.isNull(f)).join(' AND ')})`);
    where.push(`(${any.join(' OR ')})`);
  }
  if (query.since !== undefined) where.push(`${dialect.text('at')} >= ${push(query.since)}`);
  if (query.until !== undefined) where.push(`${dialect.text('at')} <= ${push(query.until)}`);
  return where.join(' AND ');
}

/** SELECT … in stream order, or the most recent `last` of them (still oldest first) */
export function recordSelect(
  columns: string,
  table: string,
  where: string,
  last: number | undefined,
  order = 'version',
): string {
  if (last === undefined) return `SELECT ${columns} FROM ${table} WHERE ${where} ORDER BY ${order}`;
  if (!(Number.isInteger(last) && last > 0)) throw new TypeError(`last must be a positive integer, got ${last}`);
  return `SELECT * FROM (SELECT ${columns} FROM ${table} WHERE ${where} ORDER BY ${order} DESC LIMIT ${last}) AS recent ORDER BY version`;
}
