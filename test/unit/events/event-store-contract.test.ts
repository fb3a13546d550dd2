/** The EventStore contract, run unchanged against every store: memory, SQLite and PostgreSQL. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryEventStore } from '../../../src/events/memory.js';
import { SqliteEventStore } from '../../../src/events/sqlite.js';
import { PostgresEventStore } from '../../../src/events/postgres.js';
import { createDatabase } from '../../helpers/postgres.js';
import { ANY_VERSION, type EventStore, type StoredEvent } from '../../../src/arena/event-store.js';
import { ConflictError } from '../../../src/shared/errors.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

// a fresh database per PostgreSQL test, made before the (synchronous) factory runs
let postgresUrl = '';

const factories: Array<[string, () => EventStore]> = [
  ['memory', () => new MemoryEventStore()],
  [
    'sqlite',
    () => {
      const dir = mkdtempSync(join(tmpdir(), 'arena-conf-'));
      const store = new SqliteEventStore({ path: join(dir, 'a.db'), synchronous: 'NORMAL' });
      cleanups.push(() => {
        store.close();
        rmSync(dir, { recursive: true, force: true });
      });
      return store;
    },
  ],
  [
    'postgres',
    () => {
      const store = new PostgresEventStore({ url: postgresUrl, pollIntervalMs: 50 });
      cleanups.push(() => store.close());
      return store;
    },
  ],
];

describe.each(factories)('EventStore contract: %s', (name, make) => {
  beforeEach(async () => {
    if (name !== 'postgres') return;
    const db = await createDatabase('contract');
    postgresUrl = db.url;
    cleanups.push(() => db.drop());
  });

  it('appends with versions and reads after a version', async () => {
    const store = make();
    expect(await store.streamVersion('s')).toBe(0);
    const stored = await store.append(
      's',
      [
        { type: 'a', data: 1 },
        { type: 'b', data: 2 },
      ],
      0,
    );
    expect(stored.map((e) => e.version)).toEqual([1, 2]);
    await store.append('s', [{ type: 'c', data: 3 }], 2);
    expect(await store.streamVersion('s')).toBe(3);
    expect((await store.read('s', 1)).map((e) => e.type)).toEqual(['b', 'c']);
    expect(await store.read('nope')).toEqual([]);
    expect(await store.append('s', [], 3)).toEqual([]);
  });

  it('a wrong expected version is a ConflictError and appends nothing; ANY_VERSION skips the check', async () => {
    const store = make();
    await store.append('s', [{ type: 'a', data: 1 }], 0);
    // a rejected promise, never a synchronous throw: callers chain on it (ArenaService does)
    let conflicting: Promise<unknown> | undefined;
    expect(() => {
      conflicting = store.append(
        's',
        [
          { type: 'b', data: 2 },
          { type: 'c', data: 3 },
        ],
        0,
      );
    }).not.toThrow();
    await expect(conflicting).rejects.toThrow(ConflictError);
    expect(() => void store.append('', [{ type: 'b', data: 2 }], ANY_VERSION).catch(() => {})).not.toThrow();
    await expect(store.append('', [{ type: 'b', data: 2 }], ANY_VERSION)).rejects.toThrow(/stream id/);
    expect(await store.streamVersion('s')).toBe(1);
    await store.append('s', [{ type: 'd', data: 4 }], ANY_VERSION);
    expect(await store.streamVersion('s')).toBe(2);
  });

  it('subscribe replays from a version, then follows live, filtered', async () => {
    const store = make();
    await store.append(
      'arena',
      [
        { type: 'x', data: 1 },
        { type: 'y', data: 2 },
      ],
      0,
    );
    await store.append('other', [{ type: 'x', data: 9 }], 0);
    const ac = new AbortController();
    const seen: StoredEvent[] = [];
    const done = (async () => {
      for await (const e of store.subscribe({ stream_id: 'arena', types: ['x', 'z'] }, 0, { signal: ac.signal })) {
        seen.push(e);
        if (seen.length === 2) ac.abort();
      }
    })();
    await store.append('other', [{ type: 'z', data: 8 }], 1);
    await store.append('arena', [{ type: 'z', data: 3 }], 2);
    await done;
    expect(seen.map((e) => [e.stream_id, e.version, e.data])).toEqual([
      ['arena', 1, 1],
      ['arena', 3, 3],
    ]);
  });

  it('without fromVersion only live events; return() unsubscribes', async () => {
    const store = make();
    await store.append('s', [{ type: 'old', data: 0 }], 0);
    const it = store.subscribe({})[Symbol.asyncIterator]();
    const next = it.next();
    await store.append('s', [{ type: 'new', data: 1 }], 1);
    expect((await next).value.type).toBe('new');
    await it.return!();
    expect((await it.next()).done).toBe(true);
  });

  it('resumes a stream after the last version seen (SSE Last-Event-ID)', async () => {
    const store = make();
    await store.append(
      'arena',
      [1, 2, 3, 4].map((n) => ({ type: 'e', data: n })),
      0,
    );
    const it = store.subscribe({ stream_id: 'arena' }, 2)[Symbol.asyncIterator]();
    expect((await it.next()).value.version).toBe(3);
    expect((await it.next()).value.version).toBe(4);
    const live = it.next();
    await store.append('arena', [{ type: 'e', data: 5 }], 4);
    expect((await live).value.version).toBe(5);
    await it.return!();
  });
});
