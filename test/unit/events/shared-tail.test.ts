/**
 * Live subscribers of one store share one catch-up read per wake-up
 * (src/events/shared-tail.ts): every subscriber still gets exactly its events,
 * in order, with their ids, whatever its filter, whenever it joined.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PostgresEventStore } from '../../../src/events/postgres.js';
import { SqliteEventStore } from '../../../src/events/sqlite.js';
import { SharedTail } from '../../../src/events/shared-tail.js';
import { createDatabase } from '../../helpers/postgres.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

interface Seen {
  stream_id: string;
  version: number;
  position: number;
}

/** reads a subscription in the background until `n` events arrived */
function collect(iterable: AsyncIterable<Seen>, n: number): { seen: Seen[]; done: Promise<void> } {
  const seen: Seen[] = [];
  const done = (async () => {
    if (n === 0) return;
    for await (const e of iterable) {
      seen.push({ stream_id: e.stream_id, version: e.version, position: e.position });
      if (seen.length >= n) break;
    }
  })();
  return { seen, done };
}

async function postgresPair(): Promise<{ reader: PostgresEventStore; writer: PostgresEventStore }> {
  const db = await createDatabase('tail');
  cleanups.push(() => db.drop());
  // two stores = two servers on one database: the reader hears the writer through NOTIFY
  const reader = new PostgresEventStore({ url: db.url, pollIntervalMs: 50 });
  const writer = new PostgresEventStore({ url: db.url });
  cleanups.push(
    () => writer.close(),
    () => reader.close(),
  );
  await Promise.all([reader.ready(), writer.ready()]);
  return { reader, writer };
}

describe('shared catch-up reads', () => {
  it('PostgreSQL: 12 subscribers of one server, 3 filters: each gets its events in order with the same ids, from far fewer reads than one per subscriber per append', async () => {
    const { reader, writer } = await postgresPair();
    const APPENDS = 30;
    // the unfiltered ones also get the warm-up event
    const all = Array.from({ length: 4 }, () => collect(reader.subscribe({}), APPENDS + 1));
    const onlyA = Array.from({ length: 4 }, () => collect(reader.subscribe({ stream_id: 'a' }), APPENDS / 2));
    const onlyY = Array.from({ length: 4 }, () => collect(reader.subscribe({ types: ['y'] }), APPENDS / 3));
    // every subscription has taken its snapshot (appends from this process wait for that; the writer's do not)
    await reader.append('warmup', [{ type: 'w', data: null }]);
    await expect.poll(() => all.every((c) => c.seen.length === 1), { timeout: 5000 }).toBe(true);
    const readsBefore = reader.tailReads;
    for (let i = 0; i < APPENDS; i++)
      await writer.append(i % 2 === 0 ? 'a' : 'b', [{ type: i % 3 === 0 ? 'y' : 'x', data: { i } }]);
    await Promise.all([...all, ...onlyA, ...onlyY].map((c) => c.done));
    const reference = all[0]!.seen.filter((e) => e.stream_id !== 'warmup');
    expect(reference.map((e) => e.stream_id)).toEqual(
      Array.from({ length: APPENDS }, (_, i) => (i % 2 === 0 ? 'a' : 'b')),
    );
    for (const c of all) expect(c.seen.filter((e) => e.stream_id !== 'warmup')).toEqual(reference);
    for (const c of onlyA) expect(c.seen).toEqual(reference.filter((e) => e.stream_id === 'a'));
    for (const c of onlyY) expect(c.seen).toEqual(reference.filter((_, i) => i % 3 === 0));
    // one read per wake-up for all 12 (a NOTIFY per append, and polls that saw it first), where each
    // subscriber used to make its own: 12 per wake-up and then one more each to find the page was the last
    const reads = reader.tailReads - readsBefore;
    expect(reads).toBeGreaterThan(0);
    expect(reads).toBeLessThan(APPENDS * 2);
  }, 30_000);

  it('PostgreSQL: a subscriber that joins while the tail is ahead reads the gap on its own, even when nothing in it matches its filter', async () => {
    const { reader, writer } = await postgresPair();
    const live = collect(reader.subscribe({}), 6);
    await reader.append('warmup', [{ type: 'w', data: null }]);
    await writer.append('a', [
      { type: 'x', data: null },
      { type: 'x', data: null },
    ]);
    await expect.poll(() => live.seen.length, { timeout: 5000 }).toBe(3);
    // replays stream b from the start: b's first event comes after events (a's) it does not want, which the tail has read
    await writer.append('b', [{ type: 'x', data: null }]);
    const late = collect(reader.subscribe({ stream_id: 'b' }, 0), 2);
    await writer.append('b', [{ type: 'x', data: null }]);
    await writer.append('a', [{ type: 'x', data: null }]);
    await Promise.all([late.done, live.done]);
    expect(late.seen.map((e) => [e.stream_id, e.version])).toEqual([
      ['b', 1],
      ['b', 2],
    ]);
    expect(live.seen.map((e) => e.stream_id)).toEqual(['warmup', 'a', 'a', 'b', 'b', 'a']);
  }, 30_000);

  it('SQLite: subscribers with different filters share the reads and each gets exactly its events', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'arena-tail-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const store = new SqliteEventStore({ path: join(dir, 'arena.db') });
    cleanups.push(() => store.close());
    await store.append('p-1', [{ type: 'x', data: null }]);
    const subs = [
      collect(store.subscribe({}), 20),
      collect(store.subscribe({ stream_prefix: 'p-' }, 0), 11),
      collect(store.subscribe({ types: ['y'] }), 10),
    ];
    for (let i = 0; i < 20; i++)
      await store.append(i % 2 === 0 ? 'p-1' : 'q-1', [{ type: i % 2 === 0 ? 'y' : 'x', data: null }]);
    await Promise.all(subs.map((c) => c.done));
    const positions = (c: { seen: Seen[] }) => c.seen.map((e) => e.position);
    expect(positions(subs[0]!)).toEqual(Array.from({ length: 20 }, (_, i) => i + 2));
    expect(subs[1]!.seen.every((e) => e.stream_id === 'p-1')).toBe(true);
    expect(subs[1]!.seen.map((e) => e.version)).toEqual(Array.from({ length: 11 }, (_, i) => i + 1));
    expect(positions(subs[2]!)).toEqual(positions(subs[0]!).filter((_, i) => i % 2 === 0));
  });

  it('a failed shared read reaches every member, which reads on its own again', async () => {
    let fail = true;
    let woke = () => undefined as void;
    const tail = new SharedTail<string, number>({
      fetch: (after) => {
        if (fail) throw new Error('connection lost');
        return { items: [{ cursor: after + 1, event: `e${after + 1}` }], cursor: after + 1, more: false };
      },
      compare: (a, b) => a - b,
      onWake: (wake) => {
        woke = wake;
        return () => undefined;
      },
    });
    const failures: unknown[] = [];
    const member = { cursor: 0, deliver: () => undefined, fail: (err: unknown) => failures.push(err) };
    expect(tail.join(member)).toBe(true);
    await new Promise((r) => setTimeout(r, 10));
    expect(failures.map(String)).toEqual(['Error: connection lost']);
    expect(tail.size).toBe(0);
    // a member behind a tail that moved on may not join
    fail = false;
    const delivered: string[] = [];
    const first = {
      cursor: 5,
      deliver(items: ReadonlyArray<{ event: string }>, c: number) {
        delivered.push(...items.map((i) => i.event));
        first.cursor = c;
      },
      fail: () => undefined,
    };
    expect(tail.join(first)).toBe(true);
    await new Promise((r) => setTimeout(r, 10));
    expect(delivered).toEqual(['e6']);
    woke();
    await new Promise((r) => setTimeout(r, 10));
    expect(tail.join({ cursor: 5, deliver: () => undefined, fail: () => undefined })).toBe(false);
    expect(tail.aheadOf(5)).toBe(7);
  });
});
