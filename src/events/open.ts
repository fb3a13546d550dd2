/**
 * `--store memory|PATH`: one helper every command that runs the arena uses to
 * turn the flag into an event store, so they all accept the same values.
 */
import { resolve } from 'node:path';
import type { EventStore } from '../arena/event-store.js';
import type { Clock } from '../shared/clock.js';
import { UsageError } from '../shared/errors.js';
import { MemoryEventStore } from './memory.js';
import { DEFAULT_DB_PATH, SqliteEventStore } from './sqlite.js';

export interface OpenedEventStore {
  store: EventStore;
  kind: 'memory' | 'sqlite';
  /** `memory`, or the absolute path of the database file */
  location: string;
  /** closes the database (a no-op for memory); idempotent */
  close(): void;
}

export interface OpenEventStoreOptions {
  /** relative paths resolve against this (default process.cwd()) */
  cwd?: string;
  clock?: Clock;
  synchronous?: 'FULL' | 'NORMAL';
}

/**
 * `memory` → an in-memory store; anything else is a SQLite file path (created
 * with its directory); undefined or empty → `.arena/arena.db`.
 */
export function openEventStore(spec: string | undefined, options: OpenEventStoreOptions = {}): OpenedEventStore {
  const value = spec?.trim() || DEFAULT_DB_PATH;
  if (value === 'memory' || value === ':memory:') {
    const clock = options.clock;
    const store = new MemoryEventStore(clock ? { now: () => clock.wallNow() } : {});
    return { store, kind: 'memory', location: 'memory', close() {} };
  }
  if (value.endsWith('/') || value.endsWith('\\')) {
    throw new UsageError(`--store ${JSON.stringify(spec)} is a directory: give a database file path (e.g. .arena/arena.db) or "memory"`);
  }
  const path = resolve(options.cwd ?? process.cwd(), value);
  const store = new SqliteEventStore({ path, clock: options.clock, synchronous: options.synchronous });
  return { store, kind: 'sqlite', location: path, close: () => store.close() };
}
