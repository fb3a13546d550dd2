/**
 * The PostgreSQL store's schema, created or migrated on first use. Each
 * migration is applied once, in order, under an advisory lock (so processes
 * starting together do not race), and only ever adds: nothing is dropped or
 * rewritten. A database migrated by newer code than this is refused.
 */
import { RuntimeError } from '../shared/errors.js';
import { RECORD_FIELDS, RECORD_STREAMS, sqlLiteral } from './record-query.js';

/** the advisory-lock namespace of everything this store locks ("ARNA") */
export const LOCK_NAMESPACE = 1095913025;

const MIGRATIONS: readonly string[] = [
  // 1: events, with the id of the writing transaction for gap-free global reads
  `
  CREATE TABLE arena_events (
    position       bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    transaction_id xid8   NOT NULL DEFAULT pg_current_xact_id(),
    stream_id      text   NOT NULL,
    version        bigint NOT NULL CHECK (version >= 1),
    type           text   NOT NULL,
    data           text   NOT NULL,
    at             text   NOT NULL,
    UNIQUE (stream_id, version)
  );
  CREATE INDEX arena_events_global ON arena_events (transaction_id, position);
  CREATE INDEX arena_events_type ON arena_events (type, transaction_id, position);

  -- One round trip per append, atomic: the stream's advisory lock is taken
  -- before anything is written, so the transaction id (assigned at the first
  -- write) of a later append to a stream is always higher than an earlier one's.
  CREATE FUNCTION arena_append(p_stream text, p_expected bigint, p_types text[], p_data text[], p_at text)
  RETURNS TABLE (out_position bigint, out_version bigint) LANGUAGE plpgsql AS $fn$
  DECLARE
    current_version bigint;
  BEGIN
    PERFORM pg_advisory_xact_lock(${LOCK_NAMESPACE}, hashtext(p_stream));
    SELECT COALESCE(MAX(version), 0) INTO current_version FROM arena_events WHERE stream_id = p_stream;
    IF p_expected <> -1 AND current_version <> p_expected THEN
      RAISE EXCEPTION 'stream % is at version %, expected %', p_stream, current_version, p_expected
        USING ERRCODE = 'AR409', DETAIL = current_version::text;
    END IF;
    RETURN QUERY
      INSERT INTO arena_events (stream_id, version, type, data, at)
      SELECT p_stream, current_version + x.n, x.t, x.d, p_at
      FROM unnest(p_types, p_data) WITH ORDINALITY AS x(t, d, n)
      ORDER BY x.n
      RETURNING position, version;
    -- no NOTIFY here: a notifying transaction holds a database-wide lock through its commit
    -- (and fsync), which serialises all writers; the store notifies after commit instead
  END
  $fn$;
  `,
  // 2: the flight records' fields, indexed on the flight streams only (record-query.ts)
  RECORD_FIELDS.map((f) => {
    const expr = f === 'at' ? `((data::jsonb ->> 'at') COLLATE "C")` : `(data::jsonb -> '${f}')`;
    return `CREATE INDEX arena_events_record_${f} ON arena_events (stream_id, ${expr}) WHERE stream_id IN (${RECORD_STREAMS.map(sqlLiteral).join(', ')});`;
  }).join('\n'),
  // 3: the regression run queue (run-queue.ts)
  `
  CREATE TABLE arena_runs (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    batch       text        NOT NULL,
    run_key     text        NOT NULL,
    request     text        NOT NULL,
    state       text        NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'running', 'done', 'failed', 'cancelled')),
    attempts    integer     NOT NULL DEFAULT 0,
    lapses      integer     NOT NULL DEFAULT 0,
    worker      text,
    lease_until timestamptz,
    result      text,
    error       text,
    created_at  timestamptz NOT NULL DEFAULT now(),
    finished_at timestamptz,
    UNIQUE (batch, run_key)
  );
  CREATE INDEX arena_runs_takeable ON arena_runs (id) WHERE state IN ('queued', 'running');
  `,
  // 4: the readers' horizon, the oldest transaction that may still add events. The cluster-wide
  // oldest running one (pg_snapshot_xmin) let any open writing transaction, in any database, hold
  // every reader back for as long as it stayed open. An append takes its stream's advisory lock
  // before it writes, so it has no transaction id before it holds the lock: a transaction that is
  // running and holds none of this store's locks has written no event and never will (append is
  // one statement, its own transaction). One that ended since the snapshot counts until the next read.
  `
  CREATE FUNCTION arena_horizon() RETURNS xid8 LANGUAGE sql STABLE AS $fn$
    SELECT COALESCE(MIN(x), pg_snapshot_xmax(pg_current_snapshot()))
    FROM pg_snapshot_xip(pg_current_snapshot()) AS x
    WHERE NOT EXISTS (
      SELECT 1 FROM pg_locks t
      WHERE t.locktype = 'transactionid' AND t.granted
        AND t.transactionid::text::bigint = x::text::bigint % 4294967296
        AND NOT EXISTS (
          SELECT 1 FROM pg_locks a
          WHERE a.locktype = 'advisory' AND a.classid = ${LOCK_NAMESPACE}::oid
            AND a.virtualtransaction = t.virtualtransaction))
  $fn$;
  `,
  // 5: the queue carries trial blocks and shrink runs too; a worker takes only the kinds it executes,
  // and a worker older than this schema refuses to start instead of taking a run it cannot read
  `
  ALTER TABLE arena_runs ADD COLUMN kind text NOT NULL DEFAULT 'regress' CHECK (kind IN ('regress', 'trial', 'shrink'));
  `,
];

export const SCHEMA_VERSION = MIGRATIONS.length;

interface Queryable {
  query(sql: string, params?: unknown[]): Promise<{ rows: Array<Record<string, unknown>> }>;
}

/** brings the database up to SCHEMA_VERSION; `label` names it in errors */
export async function migrate(client: Queryable, label: string): Promise<void> {
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1, 0)', [LOCK_NAMESPACE]);
    await client.query(`CREATE TABLE IF NOT EXISTS arena_schema (
      singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
      version integer NOT NULL,
      migrated_at timestamptz NOT NULL DEFAULT now())`);
    const { rows } = await client.query('SELECT version FROM arena_schema');
    const current = rows.length === 0 ? 0 : Number(rows[0]!.version);
    if (current > SCHEMA_VERSION) {
      throw new RuntimeError(
        `the event store at ${label} has schema version ${current}, newer than this arena understands (${SCHEMA_VERSION}): upgrade chaos-arena; nothing was changed`,
        { code: 'store_schema_newer' },
      );
    }
    for (let v = current + 1; v <= SCHEMA_VERSION; v++) await client.query(MIGRATIONS[v - 1]!);
    if (current < SCHEMA_VERSION) {
      await client.query(
        'INSERT INTO arena_schema (version) VALUES ($1) ON CONFLICT (singleton) DO UPDATE SET version = EXCLUDED.version, migrated_at = now()',
        [SCHEMA_VERSION],
      );
    }
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  }
}
