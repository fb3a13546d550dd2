/**
 * A durable event store in one SQLite file (better-sqlite3, WAL mode).
 *
 * - `append` runs in one `BEGIN IMMEDIATE` transaction: the write lock is taken
 *   before the current version is read, so the version check and the inserts
 *   are atomic even against writers in other processes on the same file. A
 *   wrong expected version throws ConflictError and writes nothing.
 * - Versions per stream start at 1 and are contiguous; `UNIQUE(stream_id,
 *   version)` is the last line of defence against duplicates.
 * - `synchronous=FULL` by default: in WAL mode every commit fsyncs the WAL, so
 *   an acknowledged append survives a process kill *and* a power cut.
 *   `NORMAL` is offered for throughput: it still survives a process crash
 *   (the WAL is written before commit returns), only a power loss can drop the
 *   last commits.
 * - `subscribe` replays from SQL, then follows live: appends through any store
 *   on the same file in this process wake subscribers at once; appends from
 *   other processes are noticed by polling `PRAGMA data_version` (one cheap
 *   pragma per interval, only while someone subscribes). Live subscribers
 *   share one read per wake-up (shared-tail.ts).
 */
import type Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { ConflictError, UsageError, errorMessage } from '../shared/errors.js';
import { systemClock, type Clock } from '../shared/clock.js';
import { createSubscription, type Subscription } from './store-subscription.js';
import { SharedTail } from './shared-tail.js';
import { ANY_VERSION, type EventQuery, type QueryableEventStore, type SubscribeOptions } from '../arena/event-store.js';
import { recordSelect, recordWhere } from './record-query.js';
import {
  SCHEMA,
  type AppendEvent,
  type SqliteEventFilter,
  type SqliteStoredEvent,
  type StoredRow,
  rowToEvent,
  normaliseFilter,
  SQLITE_DIALECT,
} from './sqlite-schema.js';

export type { AppendEvent, SqliteEventFilter, SqliteStoredEvent } from './sqlite-schema.js';

export const DEFAULT_DB_PATH = '.arena/arena.db';

/** rows per subscription read */
const PAGE = 500;

// better-sqlite3 is a native module: required when a store opens, so importing the package
// (or running a command with --store memory) never loads it
const require = createRequire(import.meta.url);
let sqlite: typeof Database | undefined;
const loadSqlite = (): typeof Database => (sqlite ??= require('better-sqlite3') as typeof Database);

export interface SqliteEventStoreOptions {
  /** file path; `:memory:` for a private in-memory database. Default `.arena/arena.db` */
  path?: string;
  /** FULL (default): durable against power loss. NORMAL: durable against process crashes only */
  synchronous?: 'FULL' | 'NORMAL';
  /** how often subscribers look for writes made by other processes (ms, default 100) */
  pollIntervalMs?: number;
  /** how long a writer waits for another process's write lock before failing (ms, default 5000) */
  busyTimeoutMs?: number;
  clock?: Clock;
}

/** in-process wake-ups: every store on the same file tells the others' subscribers */
const localListeners = new Map<string, Set<() => void>>();

export class SqliteEventStore implements QueryableEventStore {
  readonly path: string;
  private readonly db: Database.Database;
  private readonly clock: Clock;
  private readonly pollIntervalMs: number;
  private readonly subscriptions = new Set<Subscription<SqliteStoredEvent>>();
  /** the one read per wake-up shared by every live subscriber of this store */
  private readonly tail = new SharedTail<SqliteStoredEvent, number>({
    fetch: (after) => {
      const events = this.closed ? [] : this.readAll({}, after, PAGE);
      return {
        items: events.map((event) => ({ cursor: event.position, event })),
        cursor: events[events.length - 1]?.position ?? after,
        more: events.length === PAGE,
      };
    },
    compare: (a, b) => a - b,
    onWake: (wake) => this.addWaker(wake),
  });
  private readonly wakers = new Set<() => void>();
  private pollTimer: ReturnType<typeof setInterval> | undefined;
  private lastDataVersion = 0;
  private closed = false;
  private readonly statementCache = new Map<string, Database.Statement>();
  private readonly stmt: {
    version: Database.Statement<[string], { v: number | null }>;
    insert: Database.Statement<[string, number, string, string, string]>;
    read: Database.Statement<[string, number, number], StoredRow>;
    dataVersion: Database.Statement<[], { data_version: number }>;
  };
  private readonly appendTx: (
    streamId: string,
    events: readonly AppendEvent[],
    expected: number,
  ) => SqliteStoredEvent[];

  constructor(options: SqliteEventStoreOptions = {}) {
    const path = options.path ?? DEFAULT_DB_PATH;
    this.path = path === ':memory:' ? path : resolve(path);
    this.clock = options.clock ?? systemClock;
    this.pollIntervalMs = options.pollIntervalMs ?? 100;
    const synchronous = options.synchronous ?? 'FULL';
    if (synchronous !== 'FULL' && synchronous !== 'NORMAL') {
      throw new UsageError(`invalid synchronous mode ${JSON.stringify(synchronous)}: use FULL or NORMAL`);
    }
    try {
      if (this.path !== ':memory:') mkdirSync(dirname(this.path), { recursive: true });
      this.db = new (loadSqlite())(this.path, { timeout: options.busyTimeoutMs ?? 5000 });
      this.db.pragma('journal_mode = WAL');
      this.db.pragma(`synchronous = ${synchronous}`);
      this.db.exec(SCHEMA);
    } catch (err) {
      throw new UsageError(`cannot open event store ${this.path}: ${errorMessage(err)}`, {
        code: 'invalid_store',
        cause: err,
      });
    }
    this.stmt = {
      version: this.db.prepare('SELECT MAX(version) AS v FROM events WHERE stream_id = ?'),
      insert: this.db.prepare('INSERT INTO events (stream_id, version, type, data, at) VALUES (?, ?, ?, ?, ?)'),
      read: this.db.prepare(
        'SELECT position, stream_id, version, type, data, at FROM events WHERE stream_id = ? AND version > ? ORDER BY version LIMIT ?',
      ),
      dataVersion: this.db.prepare('PRAGMA data_version'),
    };
    const tx = this.db.transaction((streamId: string, events: readonly AppendEvent[], expected: number) => {
      const current = this.stmt.version.get(streamId)?.v ?? 0;
      if (expected !== ANY_VERSION && current !== expected) {
        throw new ConflictError(`stream ${streamId} is at version ${current}, expected ${expected}`, {
          code: 'version_conflict',
          details: { stream_id: streamId, expected_version: expected, actual_version: current },
        });
      }
      const at = this.clock.wallNow().toISOString();
      return events.map((event, i) => {
        const version = current + i + 1;
        const data = JSON.stringify(event.data ?? null);
        const info = this.stmt.insert.run(streamId, version, event.type, data, at);
        return {
          position: Number(info.lastInsertRowid),
          stream_id: streamId,
          version,
          type: event.type,
          data: event.data ?? null,
          at,
        };
      });
    });
    // IMMEDIATE: take the write lock before reading the version (no check-then-write race between processes)
    this.appendTx = (streamId, events, expected) => tx.immediate(streamId, events, expected);
  }

  /**
   * Appends `events` to `streamId` atomically. `expectedVersion` is the version the
   * caller last saw (0 for a new stream) or ANY_VERSION (-1) to skip the check.
   */
  async append(
    streamId: string,
    events: readonly AppendEvent[],
    expectedVersion: number = ANY_VERSION,
  ): Promise<SqliteStoredEvent[]> {
    return this.appendSync(streamId, events, expectedVersion);
  }

  /** the same as `append`, for callers that cannot await (benchmarks, crash fixtures) */
  appendSync(
    streamId: string,
    events: readonly AppendEvent[],
    expectedVersion: number = ANY_VERSION,
  ): SqliteStoredEvent[] {
    this.assertOpen();
    validateAppend(streamId, events, expectedVersion);
    if (events.length === 0) return [];
    const stored = this.appendTx(streamId, events, expectedVersion);
    notifyLocal(this.path);
    return stored;
  }

  async streamVersion(streamId: string): Promise<number> {
    return this.streamVersionSync(streamId);
  }

  streamVersionSync(streamId: string): number {
    this.assertOpen();
    return this.stmt.version.get(streamId)?.v ?? 0;
  }

  /** events of one stream with version > `fromVersion` (default 0: all), oldest first */
  async read(streamId: string, fromVersion = 0): Promise<SqliteStoredEvent[]> {
    return this.readSync(streamId, fromVersion);
  }

  readSync(streamId: string, fromVersion = 0, limit = -1): SqliteStoredEvent[] {
    this.assertOpen();
    return this.stmt.read.all(streamId, fromVersion, limit).map(rowToEvent);
  }

  /**
   * Events matching `filter` after global position `afterPosition`, oldest first.
   * `minVersion` skips events whose per-stream version is ≤ it, up to position
   * `minVersionUntil` (the replay part of a subscription).
   */
  readAll(
    filter: SqliteEventFilter | string = {},
    afterPosition = 0,
    limit = 1000,
    minVersion = 0,
    minVersionUntil = 0,
    untilPosition?: number,
  ): SqliteStoredEvent[] {
    this.assertOpen();
    const f = normaliseFilter(filter);
    const where: string[] = ['position > ?'];
    const args: unknown[] = [afterPosition];
    if (untilPosition !== undefined) {
      where.push('position <= ?');
      args.push(untilPosition);
    }
    if (minVersion > 0) {
      where.push('(version > ? OR position > ?)');
      args.push(minVersion, minVersionUntil);
    }
    if (f.stream_id !== undefined) {
      where.push('stream_id = ?');
      args.push(f.stream_id);
    }
    if (f.stream_prefix !== undefined) {
      where.push("stream_id >= ? AND stream_id < ? || x'ff'");
      args.push(f.stream_prefix, f.stream_prefix);
    }
    if (f.types && f.types.length > 0) {
      where.push(`type IN (${f.types.map(() => '?').join(', ')})`);
      args.push(...f.types);
    }
    const sql = `SELECT position, stream_id, version, type, data, at FROM events WHERE ${where.join(' AND ')} ORDER BY position LIMIT ?`;
    args.push(limit);
    let stmt = this.statementCache.get(sql);
    if (!stmt) this.statementCache.set(sql, (stmt = this.db.prepare(sql)));
    return (stmt.all(...args) as StoredRow[]).map(rowToEvent);
  }

  /** a record query as indexed SQL (see record-query.ts) */
  async queryEvents(query: EventQuery): Promise<SqliteStoredEvent[]> {
    this.assertOpen();
    const { sql, args } = this.recordSql(query);
    let stmt = this.statementCache.get(sql);
    if (!stmt) {
      stmt = this.db.prepare(sql);
      this.statementCache.set(sql, stmt);
    }
    return (stmt.all(...args) as StoredRow[]).map(rowToEvent);
  }

  /** the SQL `queryEvents` runs (tests EXPLAIN it) */
  recordSql(query: EventQuery): { sql: string; args: unknown[] } {
    const args: unknown[] = [];
    const where = recordWhere(query, SQLITE_DIALECT, (v) => {
      args.push(v);
      return '?';
    });
    // `+version`: without statistics SQLite would rather walk the whole stream in (stream_id, version)
    // order than sort the few rows a record index finds; the + stops the index serving the order
    const filtered = (query.where?.length ?? 0) > 0 || query.since !== undefined || query.until !== undefined;
    return {
      sql: recordSelect(
        'position, stream_id, version, type, data, at',
        'events',
        where,
        query.last,
        filtered ? '+version' : 'version',
      ),
      args,
    };
  }

  /** the highest global position in the file (0 when empty) */
  lastPosition(): number {
    this.assertOpen();
    return (this.db.prepare('SELECT COALESCE(MAX(position), 0) AS p FROM events').get() as { p: number }).p;
  }

  /**
   * Replays the stored events matching `filter` whose per-stream version is
   * > `fromVersion` (no replay when it is undefined), then follows new ones as
   * they are appended, in append order. A client resuming from the last
   * version it saw gets exactly the rest. Ends when `options.signal` aborts,
   * the consumer breaks out, or the store closes.
   */
  subscribe(
    filter: SqliteEventFilter | string = {},
    fromVersion?: number,
    options: SubscribeOptions = {},
  ): AsyncIterable<SqliteStoredEvent> {
    const f = normaliseFilter(filter);
    this.assertOpen();
    // fixed at subscribe time, like the memory store: later appends are live, not replay
    const livePosition = this.lastPosition();
    return {
      [Symbol.asyncIterator]: () => {
        this.assertOpen();
        const replay = fromVersion !== undefined;
        const start = replay ? 0 : livePosition;
        const minVersion = replay ? Math.max(0, fromVersion) : 0;
        const source = {
          fetch: (after: number, until: number | undefined) => {
            const events = this.closed ? [] : this.readAll(f, after, PAGE, minVersion, livePosition, until);
            const more = events.length === PAGE;
            // a short page read everything up to `until`: the subscriber is there, even if nothing matched
            return {
              events,
              cursor: !more && until !== undefined ? until : (events[events.length - 1]?.position ?? after),
              more,
            };
          },
          // the same test as readAll's WHERE, on an event the shared tail read for everyone
          accept: (e: SqliteStoredEvent) =>
            (f.stream_id === undefined || e.stream_id === f.stream_id) &&
            (f.stream_prefix === undefined || e.stream_id.startsWith(f.stream_prefix)) &&
            (!f.types || f.types.length === 0 || f.types.includes(e.type)) &&
            (minVersion <= 0 || e.version > minVersion || e.position > livePosition),
          compare: (a: number, b: number) => a - b,
          tail: this.tail,
          isClosed: () => this.closed,
        };
        const sub: Subscription<SqliteStoredEvent> = createSubscription(source, start, options.signal, () =>
          this.subscriptions.delete(sub),
        );
        this.subscriptions.add(sub);
        return sub;
      },
    };
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const sub of [...this.subscriptions]) sub.close();
    this.stopPolling();
    this.db.close();
  }

  get isOpen(): boolean {
    return !this.closed;
  }

  /** total events in the file (all streams) */
  countEvents(): number {
    this.assertOpen();
    return (this.db.prepare('SELECT COUNT(*) AS n FROM events').get() as { n: number }).n;
  }

  /**
   * for benchmarks and diagnostics: the underlying connection
   * @internal left out of the published types, which do not depend on better-sqlite3's
   */
  get database(): Database.Database {
    return this.db;
  }

  private addWaker(wake: () => void): () => void {
    this.wakers.add(wake);
    let set = localListeners.get(this.path);
    if (!set) localListeners.set(this.path, (set = new Set()));
    set.add(wake);
    this.startPolling();
    return () => {
      this.wakers.delete(wake);
      set.delete(wake);
      if (set.size === 0) localListeners.delete(this.path);
      if (this.wakers.size === 0) this.stopPolling();
    };
  }

  private startPolling(): void {
    if (this.pollTimer || this.path === ':memory:') return;
    this.lastDataVersion = this.stmt.dataVersion.get()!.data_version;
    this.pollTimer = setInterval(() => {
      if (this.closed) return;
      // data_version changes when another connection (another process) commits
      const v = this.stmt.dataVersion.get()!.data_version;
      if (v !== this.lastDataVersion) {
        this.lastDataVersion = v;
        for (const wake of [...this.wakers]) wake();
      }
    }, this.pollIntervalMs);
    this.pollTimer.unref?.();
  }

  private stopPolling(): void {
    if (this.pollTimer) clearInterval(this.pollTimer);
    this.pollTimer = undefined;
  }

  private assertOpen(): void {
    if (this.closed) throw new ConflictError(`event store ${this.path} is closed`, { code: 'store_closed' });
  }
}

function notifyLocal(path: string): void {
  const set = localListeners.get(path);
  if (set) for (const wake of [...set]) wake();
}

function validateAppend(streamId: unknown, events: unknown, expected: unknown): void {
  if (typeof streamId !== 'string' || streamId === '') throw new UsageError('stream id must be a non-empty string');
  if (!Array.isArray(events)) throw new UsageError(`events for stream ${streamId} must be an array`);
  events.forEach((e, i) => {
    if (!e || typeof e !== 'object' || typeof (e as AppendEvent).type !== 'string' || (e as AppendEvent).type === '') {
      throw new UsageError(`events[${i}] for stream ${streamId} needs a non-empty string "type"`);
    }
  });
  if (!(typeof expected === 'number' && Number.isInteger(expected) && expected >= ANY_VERSION)) {
    throw new UsageError(
      `expected version for stream ${streamId} must be a non-negative integer or ANY_VERSION (-1), got ${JSON.stringify(expected)}`,
    );
  }
}

/** opens (creating if needed) the store at `path` */
export function openSqliteEventStore(
  path = DEFAULT_DB_PATH,
  options: Omit<SqliteEventStoreOptions, 'path'> = {},
): SqliteEventStore {
  return new SqliteEventStore({ ...options, path });
}
