import { describe, expect, it } from 'vitest';
import { MemoryEventStore } from '../../../src/events/memory.js';
import { ANY_VERSION, type StoredEvent } from '../../../src/arena/event-store.js';
import { ConflictError } from '../../../src/shared/errors.js';

describe('MemoryEventStore', () => {
  it('appends with versions and reads from a version', async () => {
    const store = new MemoryEventStore();
    expect(await store.streamVersion('s')).toBe(0);
    const stored = await store.append('s', [{ type: 'a', data: 1 }, { type: 'b', data: 2 }], 0);
    expect(stored.map((e) => e.version)).toEqual([1, 2]);
    await store.append('s', [{ type: 'c', data: 3 }], 2);
    expect(await store.streamVersion('s')).toBe(3);
    expect((await store.read('s', 1)).map((e) => e.type)).toEqual(['b', 'c']);
    expect(await store.read('nope')).toEqual([]);
  });

  it('a wrong expected version is a ConflictError and appends nothing', async () => {
    const store = new MemoryEventStore();
    await store.append('s', [{ type: 'a', data: 1 }], 0);
    await expect(store.append('s', [{ type: 'b', data: 2 }, { type: 'c', data: 3 }], 0)).rejects.toThrow(ConflictError);
    expect(await store.streamVersion('s')).toBe(1);
    await store.append('s', [{ type: 'd', data: 4 }], ANY_VERSION);
    expect(await store.streamVersion('s')).toBe(2);
  });

  it('subscribe replays from a version, then follows live, filtered', async () => {
    const store = new MemoryEventStore();
    await store.append('arena', [{ type: 'x', data: 1 }, { type: 'y', data: 2 }], 0);
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

  it('without fromVersion only live events; breaking out unsubscribes', async () => {
    const store = new MemoryEventStore();
    await store.append('s', [{ type: 'old', data: 0 }], 0);
    const it = store.subscribe({})[Symbol.asyncIterator]();
    const next = it.next();
    await store.append('s', [{ type: 'new', data: 1 }], 1);
    expect((await next).value.type).toBe('new');
    await it.return!();
    expect((await it.next()).done).toBe(true);
  });
});
