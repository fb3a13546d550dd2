/**
 * The event store on PostgreSQL, shared by any number of processes and
 * machines (`--store postgres://…`). The pg client is loaded only when a
 * store is opened, through a pool.
 *
 * - `append` is one call of the `arena_append` function: one statement, so
 *   one transaction. It takes the stream's advisory lock, checks the expected
 *   version and inserts the events; a wrong version raises AR409, turned into
 *   the same ConflictError the other stores throw. `UNIQUE(stream_id, version)`
 *   is the last line of defence.
 * - Global order is (transaction_id, position), and readers only read rows of
 *   transactions older than the oldest one still running that may append
 *   (`arena_horizon()`, postgres-schema.ts; Emmett uses the oldest of all):
 *   a sequence value taken by a transaction that commits later can never be
 *   skipped by a reader that already moved past it, and a transaction open
 *   elsewhere in the cluster holds no reader back.
 * - `subscribe` replays by SQL, then follows: postgres-follow.ts wakes the
 *   store (NOTIFY after commit, and a cheap poll) on every server, and one
 *   catch-up read per wake-up feeds all its live subscribers (shared-tail.ts).
 */
import type pg from 'pg';
import { ConflictError, UsageError } from '../shared/errors.js';
import { systemClock, type Clock } from '../shared/clock.js';
import {
  ANY_VERSION,
  type EventFilter,
  type EventQuery,
  type NewEvent,
  type QueryableEventStore,
  type StoredEvent,
  type SubscribeOptions,
} from '../arena/event-store.js';
import { recordSelect, recordWhere, type SqlDialect } from './record-query.js';
import { connectionError, parsePostgresUrl, redact, type PostgresTarget } from './postgres-url.js';
import { migrate } from './postgres-schema.js';
import { createSubscription, type Page, type Subscription } from './store-subscription.js';
import { SharedTail, type TailPage } from './shared-tail.js';
import { PostgresFollower } from './postgres-follow.js';

export interface PostgresEventStoreOptions {
  url: string;
  clock?: Clock;
  /** pool size (default 10) */
  poolSize?: number;
  /** how often subscribers look again without a NOTIFY (ms, default 250) */
  pollIntervalMs?: number;
  /** how long opening a connection may take (ms, default 5000); waiting for a pooled one is not bounded */
  connectTimeoutMs?: number;
}

export interface PostgresStoredEvent extends StoredEvent {
  /** global position: unique, but not the read order (that is transaction, then position) */
  position: number;
}

interface Cursor {
  tx: string;
  pos: string;
}

interface Row {
  position: string;
  tx: string;
  stream_id: string;
  version: string;
  type: string;
  data: string;
  at: string;
}

const PAGE = 500;
const SELECT = 'SELECT position, transaction_id::text AS tx, stream_id, version, type, data, at FROM arena_events';

export class PostgresEventStore implements QueryableEventStore {
  readonly target: PostgresTarget;
  /** the URL without its password */
  readonly location: string;
  private readonly clock: Clock;
  private readonly options: PostgresEventStoreOptions;
  private readyPromise: Promise<pg.Pool> | undefined;
  private readonly follower: PostgresFollower;
  private readonly subscriptions = new Set<Subscription<unknown>>();
  /** the one catch-up read per wake-up shared by every live subscriber of this store */
  private readonly tail: SharedTail<PostgresStoredEvent, Cursor>;
  /** subscription heads being taken: appends from this process wait for them, so "live" means after subscribe() */
  private readonly pendingHeads = new Set<Promise<unknown>>();
  private closed = false;

  constructor(options: PostgresEventStoreOptions) {
    this.options = options;
    this.target = parsePostgresUrl(options.url);
    this.location = redact(options.url);
    this.clock = options.clock ?? systemClock;
    this.follower = new PostgresFollower({
      url: options.url,
      pool: () => this.ready(),
      pollIntervalMs: options.pollIntervalMs ?? 250,
      connectTimeoutMs: options.connectTimeoutMs ?? 5000,
    });
    this.tail = new SharedTail({
      fetch: (cursor) => this.tailPage(cursor),
      compare: compareCursors,
      onWake: (wake) => this.follower.add(wake),
    });
  }

  /** catch-up reads the shared tail made (for tests and benchmarks) */
  get tailReads(): number {
    return this.tail.reads;
  }

  /** connects and creates or migrates the schema; every operation awaits it, callers may too to fail early */
  ready(): Promise<pg.Pool> {
    // a failed connect is not remembered: the next operation tries again (the server may be back)
    this.readyPromise ??= this.connect().catch((err: unknown) => {
      this.readyPromise = undefined;
      throw err;
    });
    return this.readyPromise;
  }

  private async connect(): Promise<pg.Pool> {
    const { default: pgModule } = await import('pg');
    const connectTimeoutMs = this.options.connectTimeoutMs ?? 5000;
    // The timeout bounds opening a connection, not waiting for a pooled one: pg-pool applies its
    // connectionTimeoutMillis to both, and under 2 x 1,000 concurrent appends (serialised by the
    // stream lock) the queue wait passed 5 s, so actions that ran were answered "not recorded" with
    // PostgreSQL up. An unreachable server still fails each new connection within the timeout.
    class TimedClient extends pgModule.Client {
      constructor(config?: pg.ClientConfig) {
        super({ ...config, connectionTimeoutMillis: connectTimeoutMs });
      }
    }
    const pool = new pgModule.Pool({
      connectionString: this.options.url,
      max: this.options.poolSize ?? 10,
      Client: TimedClient,
    });
    // an idle client losing its connection must not crash the process; the next query reconnects
    pool.on('error', () => undefined);
    let client: pg.PoolClient;
    try {
      client = await pool.connect();
    } catch (err) {
      await pool.end().catch(() => undefined);
      throw connectionError(err, this.target);
    }
    try {
      await migrate(client, this.target.label);
    } catch (err) {
      client.release();
      await pool.end().catch(() => undefined);
      throw err instanceof Error && 'exitCode' in err ? err : connectionError(err, this.target);
    }
    client.release();
    return pool;
  }

  /** a query on the pool, connection failures translated (for the queue and flight readers) */
  async query<R extends object = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<R[]> {
    this.assertOpen();
    const pool = await this.ready();
    try {
      return (await pool.query(sql, params)).rows as R[];
    } catch (err) {
      const code = (err as { code?: string }).code;
      // SQL errors (a class-2 code and up) are ours to handle; the rest is the connection
      if (
        code &&
        /^[0-9A-Z]{5}$/.test(code) &&
        !code.startsWith('08') &&
        !code.startsWith('28') &&
        !code.startsWith('57')
      )
        throw err;
      throw connectionError(err, this.target);
    }
  }

  async append(
    streamId: string,
    events: readonly NewEvent[],
    expectedVersion: number = ANY_VERSION,
  ): Promise<PostgresStoredEvent[]> {
    validateAppend(streamId, events, expectedVersion);
    this.assertOpen();
    if (events.length === 0) return [];
    if (this.pendingHeads.size > 0) await Promise.allSettled([...this.pendingHeads]);
    const at = this.clock.wallNow().toISOString();
    const datas = events.map((e) => JSON.stringify(e.data ?? null));
    let rows: Array<{ out_position: string; out_version: string }>;
    try {
      rows = await this.query('SELECT out_position, out_version FROM arena_append($1, $2, $3, $4, $5)', [
        streamId,
        expectedVersion,
        events.map((e) => e.type),
        datas,
        at,
      ]);
    } catch (err) {
      const e = err as { code?: string; detail?: string };
      if (e.code === 'AR409') {
        const actual = Number(e.detail);
        throw new ConflictError(`stream ${streamId} is at version ${actual}, expected ${expectedVersion}`, {
          code: 'version_conflict',
          details: { stream_id: streamId, expected_version: expectedVersion, actual_version: actual },
        });
      }
      throw err;
    }
    rows.sort((a, b) => Number(a.out_version) - Number(b.out_version));
    this.follower.appended();
    return rows.map((r, i) => ({
      position: Number(r.out_position),
      stream_id: streamId,
      version: Number(r.out_version),
      type: events[i]!.type,
      data: events[i]!.data ?? null,
      at,
    }));
  }

  async streamVersion(streamId: string): Promise<number> {
    const rows = await this.query<{ v: string | null }>(
      'SELECT MAX(version) AS v FROM arena_events WHERE stream_id = $1',
      [streamId],
    );
    return Number(rows[0]?.v ?? 0);
  }

  async read(streamId: string, fromVersion = 0): Promise<PostgresStoredEvent[]> {
    const rows = await this.query<Row>(`${SELECT} WHERE stream_id = $1 AND version > $2 ORDER BY version`, [
      streamId,
      fromVersion,
    ]);
    return rows.map(rowToEvent);
  }

  /** a record query as indexed SQL (see record-query.ts) */
  async queryEvents(query: EventQuery): Promise<PostgresStoredEvent[]> {
    const args: unknown[] = [];
    const where = recordWhere(query, PG_DIALECT, (v) => `$${args.push(v)}`);
    const rows = await this.query<Row>(
      recordSelect(
        'position, transaction_id::text AS tx, stream_id, version, type, data, at',
        'arena_events',
        where,
        query.last,
      ),
      args,
    );
    return rows.map(rowToEvent);
  }

  /**
   * Replays the stored events matching `filter` whose per-stream version is
   * > `fromVersion` (no replay when undefined), then follows new ones, from
   * any process on the database. Events appended after this call are live.
   */
  subscribe(
    filter: EventFilter = {},
    fromVersion?: number,
    options: SubscribeOptions = {},
  ): AsyncIterable<PostgresStoredEvent> {
    this.assertOpen();
    // the snapshot now: what it sees is replay (or skipped), what it does not is live
    const head = this.ready().then((pool) =>
      pool.query<{ snap: string; xmin: string }>(
        'SELECT pg_current_snapshot()::text AS snap, pg_snapshot_xmin(pg_current_snapshot())::text AS xmin',
      ),
    );
    this.pendingHeads.add(head);
    const settle = () => this.pendingHeads.delete(head);
    head.then(settle, settle);
    const replay = fromVersion !== undefined;
    const minVersion = replay ? Math.max(0, fromVersion) : 0;
    return {
      [Symbol.asyncIterator]: () => {
        this.assertOpen();
        const start = head.then(({ rows }) => {
          const { snap, xmin } = rows[0]!;
          return { snap, cursor: replay ? { tx: '0', pos: '0' } : { tx: xmin, pos: '0' } };
        });
        let snap: Snapshot | undefined;
        let snapText = '';
        const source = {
          fetch: (cursor: Cursor, until: Cursor | undefined) =>
            this.page(filter, cursor, until, snapText, replay, minVersion),
          // the same test as page()'s WHERE, on an event the shared tail read for everyone
          accept: (e: PostgresStoredEvent, at: Cursor) =>
            (filter.stream_id === undefined || e.stream_id === filter.stream_id) &&
            (!filter.types || filter.types.length === 0 || filter.types.includes(e.type)) &&
            ((replay && e.version > minVersion) || !visibleIn(snap!, BigInt(at.tx))),
          compare: compareCursors,
          tail: this.tail,
          isClosed: () => this.closed,
        };
        const cursorStart = start.then((s) => {
          snapText = s.snap;
          snap = parseSnapshot(s.snap);
          return s.cursor;
        });
        cursorStart.catch(() => undefined);
        const sub: Subscription<PostgresStoredEvent> = createSubscription(source, cursorStart, options.signal, () =>
          this.subscriptions.delete(sub as Subscription<unknown>),
        );
        this.subscriptions.add(sub as Subscription<unknown>);
        return sub;
      },
    };
  }

  /** one page after `cursor` (up to `until`), in global order, only from transactions no reader can see overtaken */
  private async page(
    filter: EventFilter,
    cursor: Cursor,
    until: Cursor | undefined,
    snap: string,
    replay: boolean,
    minVersion: number,
  ): Promise<Page<PostgresStoredEvent, Cursor>> {
    const where = ['(transaction_id, position) > ($1::xid8, $2::bigint)', 'transaction_id < (SELECT arena_horizon())'];
    const args: unknown[] = [cursor.tx, cursor.pos];
    // replay: versions after fromVersion among what the head snapshot saw; live: only what it did not
    args.push(snap);
    where.push(
      replay
        ? `(version > $${args.push(minVersion)} OR NOT pg_visible_in_snapshot(transaction_id, $3::pg_snapshot))`
        : 'NOT pg_visible_in_snapshot(transaction_id, $3::pg_snapshot)',
    );
    if (until)
      where.push(`(transaction_id, position) <= ($${args.push(until.tx)}::xid8, $${args.push(until.pos)}::bigint)`);
    if (filter.stream_id !== undefined) where.push(`stream_id = $${args.push(filter.stream_id)}`);
    if (filter.types && filter.types.length > 0) where.push(`type = ANY($${args.push([...filter.types])}::text[])`);
    const rows = await this.query<Row>(
      `${SELECT} WHERE ${where.join(' AND ')} ORDER BY transaction_id, position LIMIT ${PAGE}`,
      args,
    );
    const more = rows.length === PAGE;
    const last = rows[rows.length - 1];
    // a short page read everything up to `until`: the subscriber is there, even if nothing matched
    const next = !more && until ? until : last ? { tx: last.tx, pos: last.position } : cursor;
    return { events: rows.map(rowToEvent), cursor: next, more };
  }

  /** the shared tail's read: everything readable after `cursor`, every stream, each event with its cursor */
  private async tailPage(cursor: Cursor): Promise<TailPage<PostgresStoredEvent, Cursor>> {
    const rows = await this.query<Row>(
      `${SELECT} WHERE (transaction_id, position) > ($1::xid8, $2::bigint) AND transaction_id < (SELECT arena_horizon()) ORDER BY transaction_id, position LIMIT ${PAGE}`,
      [cursor.tx, cursor.pos],
    );
    const items = rows.map((r) => ({ cursor: { tx: r.tx, pos: r.position }, event: rowToEvent(r) }));
    return { items, cursor: items[items.length - 1]?.cursor ?? cursor, more: rows.length === PAGE };
  }

  /** ends every subscription and the pool; idempotent */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const sub of [...this.subscriptions]) sub.close();
    await this.follower.close();
    const pool = await this.readyPromise?.catch(() => undefined);
    await pool?.end().catch(() => undefined);
  }

  get isOpen(): boolean {
    return !this.closed;
  }

  private assertOpen(): void {
    if (this.closed) throw new ConflictError(`event store ${this.location} is closed`, { code: 'store_closed' });
  }
}

const PG_DIALECT: SqlDialect = {
  text: (f) => `((data::jsonb ->> '${f}') COLLATE "C")`,
  equals: (f, v, push) => `(data::jsonb -> '${f}') = ${push(JSON.stringify(v))}::jsonb`,
  isNull: (f) => `COALESCE(jsonb_typeof(data::jsonb -> '${f}'), 'null') = 'null'`,
};

function compareCursors(a: Cursor, b: Cursor): number {
  const tx = BigInt(a.tx) - BigInt(b.tx);
  if (tx !== 0n) return tx < 0n ? -1 : 1;
  const pos = BigInt(a.pos) - BigInt(b.pos);
  return pos === 0n ? 0 : pos < 0n ? -1 : 1;
}

/** a pg_snapshot's text form, `xmin:xmax:xip,…` */
interface Snapshot {
  xmin: bigint;
  xmax: bigint;
  running: Set<bigint>;
}

function parseSnapshot(text: string): Snapshot {
  const [xmin = '0', xmax = '0', xip = ''] = text.split(':');
  return { xmin: BigInt(xmin), xmax: BigInt(xmax), running: new Set(xip ? xip.split(',').map(BigInt) : []) };
}

/** pg_visible_in_snapshot: the transaction had committed when the snapshot was taken */
function visibleIn(snap: Snapshot, tx: bigint): boolean {
  return tx < snap.xmin || (tx < snap.xmax && !snap.running.has(tx));
}

function rowToEvent(row: Row): PostgresStoredEvent {
  return {
    position: Number(row.position),
    stream_id: row.stream_id,
    version: Number(row.version),
    type: row.type,
    data: JSON.parse(row.data),
    at: row.at,
  };
}

function validateAppend(streamId: unknown, events: unknown, expected: unknown): void {
  if (typeof streamId !== 'string' || streamId === '') throw new UsageError('stream id must be a non-empty string');
  if (!Array.isArray(events)) throw new UsageError(`events for stream ${streamId} must be an array`);
  events.forEach((e, i) => {
    if (!e || typeof e !== 'object' || typeof (e as NewEvent).type !== 'string' || (e as NewEvent).type === '') {
      throw new UsageError(`events[${i}] for stream ${streamId} needs a non-empty string "type"`);
    }
  });
  if (!(typeof expected === 'number' && Number.isInteger(expected) && expected >= ANY_VERSION)) {
    throw new UsageError(
      `expected version for stream ${streamId} must be a non-negative integer or ANY_VERSION (-1), got ${JSON.stringify(expected)}`,
    );
  }
}
