/**
 * `--store memory|PATH|postgres://…` (or ARENA_STORE): one helper every
 * command that runs the arena uses to turn the flag into an event store, so
 * they all accept the same values. The PostgreSQL store loads `pg` only when
 * it connects.
 */
import { resolve } from 'node:path';
import type { EventStore } from '../arena/event-store.js';
import type { Clock } from '../shared/clock.js';
import { UsageError } from '../shared/errors.js';
import { MemoryEventStore } from './memory.js';
import { DEFAULT_DB_PATH, SqliteEventStore } from './sqlite.js';
import { PostgresEventStore } from './postgres.js';
import { storeKind, type StoreKind } from './store-spec.js';

export type { StoreKind } from './store-spec.js';

export interface OpenedEventStore {
  store: EventStore;
  kind: StoreKind;
  /** `memory`, the absolute path of the database file, or the URL without its password */
  location: string;
  /** connects (PostgreSQL: reaches the server, creates or migrates the schema); callers await it to fail early */
  ready(): Promise<void>;
  /** closes the database (a no-op for memory); idempotent */
  close(): void | Promise<void>;
}

export interface OpenEventStoreOptions {
  /** relative paths resolve against this (default process.cwd()) */
  cwd?: string;
  clock?: Clock;
  synchronous?: 'FULL' | 'NORMAL';
}

/**
 * `memory` → an in-memory store; `postgres://…` → the PostgreSQL store;
 * anything else is a SQLite file path (created with its directory);
 * undefined or empty → `.arena/arena.db`.
 */
export function openEventStore(spec: string | undefined, options: OpenEventStoreOptions = {}): OpenedEventStore {
  const value = spec?.trim() || DEFAULT_DB_PATH;
  const kind = storeKind(value);
  if (kind === 'memory') {
    const clock = options.clock;
    const store = new MemoryEventStore(clock ? { now: () => clock.wallNow() } : {});
    return { store, kind, location: 'memory', ready: async () => undefined, close() {} };
  }
  if (kind === 'postgres') {
    const store = new PostgresEventStore({ url: value, ...(options.clock ? { clock: options.clock } : {}) });
    return {
      store,
      kind,
      location: store.location,
      ready: async () => void (await store.ready()),
      close: () => store.close(),
    };
  }
  if (value.endsWith('/') || value.endsWith('\\')) {
    throw new UsageError(
      `--store ${JSON.stringify(spec)} is a directory: give a database file path (e.g. .arena/arena.db), a postgres:// URL or "memory"`,
    );
  }
  const path = resolve(options.cwd ?? process.cwd(), value);
  const store = new SqliteEventStore({ path, clock: options.clock, synchronous: options.synchronous });
  return { store, kind, location: path, ready: async () => undefined, close: () => store.close() };
}

/** `openEventStore`, then ready: a store that cannot be reached is closed again and the error thrown */
export async function openReadyEventStore(
  spec: string | undefined,
  options: OpenEventStoreOptions = {},
): Promise<OpenedEventStore> {
  const opened = openEventStore(spec, options);
  try {
    await opened.ready();
  } catch (err) {
    await opened.close();
    throw err;
  }
  return opened;
}
