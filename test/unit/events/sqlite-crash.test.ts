import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { SqliteEventStore } from '../../../src/events/sqlite.js';
import { compileStore, WRITER } from './sqlite-build.js';

let storeModule = '';
let dir = '';

beforeAll(async () => {
  storeModule = await compileStore();
}, 60_000);

afterAll(() => {
  if (storeModule) rmSync(dirname(dirname(storeModule)), { recursive: true, force: true });
});

afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('SqliteEventStore across processes', () => {
  it('keeps every acknowledged append when the writer is SIGKILLed mid-way, and reopens cleanly', async () => {
    dir = mkdtempSync(join(tmpdir(), 'arena-crash-'));
    const db = join(dir, 'arena.db');
    const child = execa('node', [WRITER, 'crash', db, '1000000'], {
      env: { SQLITE_STORE_MODULE: storeModule },
      reject: false,
      buffer: false,
    });
    const acked = new Map<string, number>();
    let lines = 0;
    let carry = '';
    await new Promise<void>((resolve, reject) => {
      child.stdout!.on('data', (chunk: Buffer) => {
        const text = carry + chunk.toString();
        const parts = text.split('\n');
        carry = parts.pop()!;
        for (const line of parts) {
          const [tag, stream, version] = line.split(' ');
          if (tag !== 'ack') continue;
          acked.set(stream!, Number(version));
          if (++lines === 400) {
            // kill in the middle of the stream of appends, without any chance to clean up
            child.kill('SIGKILL');
            resolve();
          }
        }
      });
      child.once('exit', () => resolve());
      child.once('error', reject);
    });
    const exit = await child;
    expect(exit.signal).toBe('SIGKILL');
    expect(lines).toBeGreaterThanOrEqual(400);

    const store = new SqliteEventStore({ path: db });
    try {
      expect(store.database.pragma('integrity_check', { simple: true })).toBe('ok');
      for (const [stream, version] of acked) {
        const events = store.readSync(stream);
        // at least everything acknowledged (the kill may land after a commit, before its ack line)
        expect(events.length).toBeGreaterThanOrEqual(version);
        expect(events.map((e) => e.version)).toEqual(events.map((_, i) => i + 1));
        expect(store.streamVersionSync(stream)).toBe(events.length);
      }
      // the store is writable after the crash, continuing the version sequence
      const v = store.streamVersionSync('crash-a');
      const [next] = store.appendSync('crash-a', [{ type: 'after-crash' }], v);
      expect(next!.version).toBe(v + 1);
    } finally {
      store.close();
    }
  });

  it('keeps versions contiguous with two processes appending to one stream', async () => {
    dir = mkdtempSync(join(tmpdir(), 'arena-contend-'));
    const db = join(dir, 'arena.db');
    new SqliteEventStore({ path: db }).close(); // create the schema once, before the race
    const env = { SQLITE_STORE_MODULE: storeModule, SQLITE_SYNC: 'NORMAL' };
    const [a, b] = await Promise.all([
      execa('node', [WRITER, 'contend', db, '300', 'A'], { env }),
      execa('node', [WRITER, 'contend', db, '300', 'B'], { env }),
    ]);
    expect(a.stdout).toMatch(/^done 300 \d+/);
    expect(b.stdout).toMatch(/^done 300 \d+/);
    const store = new SqliteEventStore({ path: db });
    try {
      const events = store.readSync('shared');
      expect(events).toHaveLength(600);
      expect(events.map((e) => e.version)).toEqual(Array.from({ length: 600 }, (_, i) => i + 1));
      const byWriter = (w: string) =>
        events.filter((e) => (e.data as { writer: string }).writer === w).map((e) => (e.data as { i: number }).i);
      // each writer's events are all there, once, in its own order
      expect(byWriter('A')).toEqual(Array.from({ length: 300 }, (_, i) => i));
      expect(byWriter('B')).toEqual(Array.from({ length: 300 }, (_, i) => i));
    } finally {
      store.close();
    }
  });
});
