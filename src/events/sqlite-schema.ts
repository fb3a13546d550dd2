/** Table layout and row mapping of the SQLite event store. */
import { UsageError } from '../shared/errors.js';
import type { EventFilter, StoredEvent } from '../arena/event-store.js';
import { RECORD_FIELDS, RECORD_STREAMS, sqlLiteral, type SqlDialect } from './record-query.js';

export const SCHEMA = `
CREATE TABLE IF NOT EXISTS events (
  position  INTEGER PRIMARY KEY AUTOINCREMENT,
  stream_id TEXT    NOT NULL,
  version   INTEGER NOT NULL CHECK (version >= 1),
  type      TEXT    NOT NULL,
  data      TEXT    NOT NULL,
  at        TEXT    NOT NULL,
  UNIQUE (stream_id, version)
);
CREATE INDEX IF NOT EXISTS events_type ON events (type, position);
${RECORD_STREAMS.flatMap((stream, i) =>
  RECORD_FIELDS.map(
    (f) =>
      `CREATE INDEX IF NOT EXISTS events_record_${i}_${f} ON events (stream_id, json_extract(data, '$.${f}')) WHERE stream_id = ${sqlLiteral(stream)};`,
  ),
).join('\n')}
`;

/** record queries (record-query.ts): json_extract, so the partial expression indexes above apply */
export const SQLITE_DIALECT: SqlDialect = {
  text: (f) => `json_extract(data, '$.${f}')`,
  equals: (f, v, push) =>
    typeof v === 'boolean' ? `json_type(data, '$.${f}') = '${v}'` : `json_extract(data, '$.${f}') = ${push(v)}`,
  isNull: (f) => `json_extract(data, '$.${f}') IS NULL`,
};

/** what a caller appends (`data` may be omitted: stored as null) */
export interface AppendEvent {
  type: string;
  data?: unknown;
}

/** a stored event; `position` orders events across all streams of one file */
export interface SqliteStoredEvent extends StoredEvent {
  position: number;
}

/** the arena's filter, plus a stream-id prefix */
export interface SqliteEventFilter extends EventFilter {
  /** every stream whose id starts with this */
  stream_prefix?: string;
}

export interface StoredRow {
  position: number;
  stream_id: string;
  version: number;
  type: string;
  data: string;
  at: string;
}

export function rowToEvent(row: StoredRow): SqliteStoredEvent {
  return {
    position: row.position,
    stream_id: row.stream_id,
    version: row.version,
    type: row.type,
    data: JSON.parse(row.data),
    at: row.at,
  };
}

export function normaliseFilter(filter: SqliteEventFilter | string | undefined): SqliteEventFilter {
  if (filter === undefined) return {};
  if (typeof filter === 'string') return { stream_id: filter };
  if (typeof filter !== 'object' || filter === null)
    throw new UsageError('event filter must be a stream id or an object');
  const out: { stream_id?: string; stream_prefix?: string; types?: string[] } = {};
  const f = filter as SqliteEventFilter & { streamId?: string; stream?: string; type?: string };
  const stream = f.stream_id ?? f.streamId ?? f.stream;
  if (stream !== undefined) out.stream_id = String(stream);
  if (f.stream_prefix !== undefined) out.stream_prefix = String(f.stream_prefix);
  const types = f.types ?? (f.type !== undefined ? [f.type] : undefined);
  if (types !== undefined) out.types = types.map(String);
  return out;
}
