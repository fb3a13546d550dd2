import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, existsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore, type SqliteStoredEvent } from '../../../src/events/sqlite.js';
import { ConflictError, UsageError } from '../../../src/shared/errors.js';
import { ManualClock } from '../../../src/shared/clock.js';

const dirs: string[] = [];
const stores: SqliteEventStore[] = [];
function tempDb(): string {
  const dir = mkdtempSync(join(tmpdir(), 'arena-sqlite-'));
  dirs.push(dir);
  return join(dir, 'arena.db');
}
function open(path: string, opts: Partial<ConstructorParameters<typeof SqliteEventStore>[0]> = {}): SqliteEventStore {
  const s = new SqliteEventStore({ path, pollIntervalMs: 10, ...opts });
  stores.push(s);
  return s;
}
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function take(iterable: AsyncIterable<SqliteStoredEvent>, n: number): Promise<SqliteStoredEvent[]> {
  const out: SqliteStoredEvent[] = [];
  if (n === 0) return out;
  for await (const e of iterable) {
    out.push(e);
    if (out.length >= n) break;
  }
  return out;
}

describe('SqliteEventStore', () => {
  it('creates the file and its directory, appends with versions from 1 and reads them back', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'arena-sqlite-')), 'nested', 'dir', 'arena.db');
    dirs.push(join(path, '../../..'));
    const clock = new ManualClock();
    const store = open(path, { clock });
    expect(existsSync(path)).toBe(true);
    expect(store.database.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(store.database.pragma('synchronous', { simple: true })).toBe(2); // FULL
    expect(await store.streamVersion('s')).toBe(0);
    const stored = await store.append('s', [{ type: 'a', data: { n: 1 } }, { type: 'b' }], 0);
    expect(stored.map((e) => [e.version, e.type])).toEqual([
      [1, 'a'],
      [2, 'b'],
    ]);
    expect(stored[0]!.at).toBe('2026-01-01T00:00:00.000Z');
    await store.append('s', [{ type: 'c', data: [1, 2] }], 2);
    expect(await store.streamVersion('s')).toBe(3);
    const events = await store.read('s');
    expect(events.map((e) => e.data)).toEqual([{ n: 1 }, null, [1, 2]]);
    expect((await store.read('s', 2)).map((e) => e.type)).toEqual(['c']);
  });

  it('rejects a wrong expected version with ConflictError and appends nothing', async () => {
    const store = open(tempDb());
    await store.append('s', [{ type: 'a' }], 0);
    await expect(store.append('s', [{ type: 'b' }, { type: 'c' }], 0)).rejects.toBeInstanceOf(ConflictError);
    await expect(store.append('s', [{ type: 'b' }], 5)).rejects.toMatchObject({
      code: 'version_conflict',
      status: 409,
    });
    expect(await store.streamVersion('s')).toBe(1);
    expect(store.countEvents()).toBe(1);
  });

  it('is atomic: a batch that fails half-way leaves nothing behind', async () => {
    const store = open(tempDb());
    // BigInt cannot be serialised: the second event throws inside the transaction
    await expect(store.append('s', [{ type: 'ok' }, { type: 'bad', data: { n: 1n } }], 0)).rejects.toThrow();
    expect(await store.streamVersion('s')).toBe(0);
    expect(store.countEvents()).toBe(0);
  });

  it('rejects malformed input with a UsageError naming the problem', async () => {
    const store = open(tempDb());
    await expect(store.append('', [{ type: 'a' }], 0)).rejects.toBeInstanceOf(UsageError);
    await expect(store.append('s', [{ type: '' }], 0)).rejects.toThrow(/events\[0\].*type/);
    await expect(store.append('s', [{ type: 'a' }], -2)).rejects.toThrow(/expected version/);
    // a directory that cannot exist: its parent is a regular file
    const file = tempDb();
    writeFileSync(file, 'not a directory');
    expect(() => new SqliteEventStore({ path: join(file, 'sub', 'arena.db') })).toThrow(/cannot open event store/);
    // a file that is not a database
    expect(() => new SqliteEventStore({ path: file })).toThrow(UsageError);
  });

  it('persists across reopen', async () => {
    const path = tempDb();
    const a = new SqliteEventStore({ path });
    await a.append('s', [{ type: 'a' }, { type: 'b' }], 0);
    a.close();
    const b = open(path);
    expect((await b.read('s')).map((e) => e.type)).toEqual(['a', 'b']);
    await expect(b.append('s', [{ type: 'c' }], 2)).resolves.toHaveLength(1);
  });

  it('keeps versions contiguous with several writers on several connections', async () => {
    const path = tempDb();
    const writers = [open(path), open(path), open(path), open(path)];
    let conflicts = 0;
    await Promise.all(
      writers.map(async (store, w) => {
        for (let i = 0; i < 50; ) {
          const v = await store.streamVersion('shared');
          // yield between read and write so writers interleave
          await new Promise((r) => setImmediate(r));
          try {
            await store.append('shared', [{ type: 'w', data: { w, i } }], v);
            i++;
          } catch (err) {
            if (!(err instanceof ConflictError)) throw err;
            conflicts++;
          }
        }
      }),
    );
    const events = await writers[0]!.read('shared');
    expect(events.map((e) => e.version)).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    expect(conflicts).toBeGreaterThan(0);
  });

  it('subscribe replays, then follows live appends', async () => {
    const store = open(tempDb());
    await store.append('s', [{ type: 'a' }, { type: 'b' }], 0);
    const got = take(store.subscribe('s', 0), 4);
    await new Promise((r) => setTimeout(r, 5));
    await store.append('other', [{ type: 'x' }], 0);
    await store.append('s', [{ type: 'c' }, { type: 'd' }], 2);
    expect((await got).map((e) => `${e.type}${e.version}`)).toEqual(['a1', 'b2', 'c3', 'd4']);
  });

  it('subscribe resumes after a given version and filters by prefix and type', async () => {
    const store = open(tempDb());
    await store.append('run-1', [{ type: 'action' }, { type: 'snapshot' }, { type: 'action' }], 0);
    await store.append('run-2', [{ type: 'action' }], 0);
    await store.append('flight', [{ type: 'action' }], 0);
    expect((await take(store.subscribe('run-1', 2), 1)).map((e) => e.version)).toEqual([3]);
    const filtered = await take(store.subscribe({ stream_prefix: 'run-', types: ['action'] }, 0), 3);
    expect(filtered.map((e) => `${e.stream_id}@${e.version}`)).toEqual(['run-1@1', 'run-1@3', 'run-2@1']);
    // across streams, fromVersion applies per stream (as in the memory store) …
    const replayed = take(store.subscribe({}, 1), 3);
    await new Promise((r) => setTimeout(r, 5));
    // … and a later append is live whatever its version
    await store.append('new', [{ type: 'live' }], 0);
    expect((await replayed).map((e) => `${e.stream_id}@${e.version}`)).toEqual(['run-1@2', 'run-1@3', 'new@1']);
  });

  it('subscribe without fromVersion only follows live appends', async () => {
    const store = open(tempDb());
    await store.append('s', [{ type: 'old' }], 0);
    const got = take(store.subscribe({ stream_id: 's' }), 1);
    await store.append('s', [{ type: 'new' }], 1);
    expect((await got).map((e) => e.type)).toEqual(['new']);
  });

  it('subscribe sees appends made through another connection (another process) by polling', async () => {
    const path = tempDb();
    const reader = open(path, { pollIntervalMs: 5 });
    const writer = open(path);
    const it = reader.subscribe('s', 0)[Symbol.asyncIterator]();
    const next = it.next();
    // bypass the in-process wake-up: write through raw SQL as another process would
    writer.database
      .prepare("INSERT INTO events (stream_id, version, type, data, at) VALUES ('s', 1, 'raw', 'null', 'now')")
      .run();
    const r = await next;
    expect(r.value?.type).toBe('raw');
    await it.return!();
  });

  it('a parked subscription ends on return(), abort and close', async () => {
    const store = open(tempDb());
    const it1 = store.subscribe('s')[Symbol.asyncIterator]();
    const p1 = it1.next();
    await it1.return!();
    expect((await p1).done).toBe(true);

    const ac = new AbortController();
    const it2 = store.subscribe('s', 0, { signal: ac.signal })[Symbol.asyncIterator]();
    const p2 = it2.next();
    ac.abort();
    expect((await p2).done).toBe(true);

    const it3 = store.subscribe('s')[Symbol.asyncIterator]();
    const p3 = it3.next();
    store.close();
    expect((await p3).done).toBe(true);
    await expect(store.append('s', [{ type: 'a' }], 0)).rejects.toBeInstanceOf(ConflictError);
  });
});
