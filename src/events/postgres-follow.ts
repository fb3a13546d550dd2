/**
 * How the PostgreSQL store's subscribers learn that there may be something new
 * to read, from any process on the database:
 *
 * - NOTIFY `arena_events`, sent by a store after its appends commit (coalesced:
 *   at most one in flight), heard on one LISTEN connection per store while
 *   anyone subscribes. It is sent outside the append's transaction because a
 *   notifying commit takes a database-wide lock through its fsync, which would
 *   serialise every writer behind the others.
 * - A poll, one cheap query per interval for the whole store, for what NOTIFY
 *   cannot carry: a lost LISTEN connection, a writer killed between commit and
 *   NOTIFY, an old transaction that held events back and ends without
 *   appending. It wakes subscribers only when the newest position or the
 *   horizon moved.
 */
import type pg from 'pg';

export interface FollowerOptions {
  url: string;
  pool: () => Promise<pg.Pool>;
  pollIntervalMs: number;
  connectTimeoutMs: number;
}

const CHANNEL = 'arena_events';

export class PostgresFollower {
  private readonly wakers = new Set<() => void>();
  private pollTimer: ReturnType<typeof setInterval> | undefined;
  private listener: pg.Client | undefined;
  private listening: Promise<void> | undefined;
  private lastMark = '';
  private polling = false;
  private notifying: Promise<void> | undefined;
  private notifyAgain = false;
  private closed = false;

  constructor(private readonly options: FollowerOptions) {}

  /** `wake` is called whenever there may be something new; returns the unsubscribe */
  add(wake: () => void): () => void {
    this.wakers.add(wake);
    this.start();
    return () => {
      this.wakers.delete(wake);
      if (this.wakers.size === 0) this.stop();
    };
  }

  wakeAll = (): void => {
    for (const wake of [...this.wakers]) wake();
  };

  /** after an append committed: this process's subscribers now, everyone else's by NOTIFY */
  appended(): void {
    this.wakeAll();
    if (this.notifying) {
      this.notifyAgain = true;
      return;
    }
    const send = async () => {
      do {
        this.notifyAgain = false;
        const pool = await this.options.pool().catch(() => undefined);
        await pool?.query(`SELECT pg_notify('${CHANNEL}', '')`).catch(() => undefined);
      } while (this.notifyAgain && !this.closed);
      this.notifying = undefined;
    };
    this.notifying = send();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.stop();
    await this.notifying;
  }

  private poll = (): void => {
    if (this.polling || this.closed) return;
    this.polling = true;
    this.options
      .pool()
      .then((pool) =>
        pool.query<{ mark: string }>(
          "SELECT arena_horizon()::text || '/' || COALESCE((SELECT MAX(position) FROM arena_events), 0)::text AS mark",
        ),
      )
      .then(({ rows }) => {
        const mark = rows[0]?.mark ?? '';
        if (mark !== this.lastMark) {
          this.lastMark = mark;
          this.wakeAll();
        }
      })
      .catch(() => undefined)
      .finally(() => {
        this.polling = false;
      });
  };

  private start(): void {
    if (!this.pollTimer) {
      this.pollTimer = setInterval(this.poll, this.options.pollIntervalMs);
      this.pollTimer.unref?.();
    }
    this.listening ??= this.listen().catch(() => {
      // polling keeps subscribers going; the next subscription tries to listen again
      this.listening = undefined;
    });
  }

  private async listen(): Promise<void> {
    await this.options.pool();
    const { default: pgModule } = await import('pg');
    const client = new pgModule.Client({
      connectionString: this.options.url,
      connectionTimeoutMillis: this.options.connectTimeoutMs,
    });
    client.on('error', () => {
      if (this.listener === client) {
        this.listener = undefined;
        this.listening = undefined;
      }
    });
    client.on('notification', this.wakeAll);
    await client.connect();
    // stopped (or replaced) while connecting: this connection is nobody's
    if (this.closed || this.wakers.size === 0 || this.listener) {
      await client.end().catch(() => undefined);
      if (!this.listener) this.listening = undefined;
      return;
    }
    await client.query(`LISTEN ${CHANNEL}`);
    this.listener = client;
    // what was appended while we connected
    this.wakeAll();
  }

  private stop(): void {
    if (this.pollTimer) clearInterval(this.pollTimer);
    this.pollTimer = undefined;
    const client = this.listener;
    this.listener = undefined;
    this.listening = undefined;
    void client?.end().catch(() => undefined);
  }
}
