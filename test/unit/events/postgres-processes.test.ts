/** The PostgreSQL store under real concurrency: four writer processes on one stream, one SIGKILLed. */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { execa, type ResultPromise } from 'execa';
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { PostgresEventStore } from '../../../src/events/postgres.js';
import { createDatabase } from '../../helpers/postgres.js';
import { bundlePostgresStore, PG_WRITER } from './postgres-build.js';

let storeModule = '';
const cleanups: Array<() => unknown> = [];

beforeAll(async () => {
  storeModule = await bundlePostgresStore();
}, 60_000);
afterAll(() => {
  if (storeModule) rmSync(dirname(storeModule), { recursive: true, force: true });
});
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

type Acks = Array<{ writer: string; i: number; version: number }>;

function writer(url: string, id: string, acks: Acks, onAck?: (n: number) => void): ResultPromise {
  const child = execa('node', [PG_WRITER, url, 'shared', '200', id], {
    env: { PG_STORE_MODULE: storeModule },
    reject: false,
    buffer: { stdout: false },
  });
  cleanups.push(() => child.kill('SIGKILL'));
  let carry = '';
  let n = 0;
  child.stdout!.on('data', (chunk: Buffer) => {
    const lines = (carry + chunk.toString()).split('\n');
    carry = lines.pop()!;
    for (const line of lines) {
      const [tag, i, version] = line.split(' ');
      if (tag !== 'ack') continue;
      acks.push({ writer: id, i: Number(i), version: Number(version) });
      onAck?.(++n);
    }
  });
  return child;
}

describe('PostgresEventStore across processes', () => {
  it('4 processes × 200 optimistic appends to one stream give versions 1..800 exactly, every acknowledged append kept when one writer is SIGKILLed and restarted', async () => {
    const db = await createDatabase('writers');
    cleanups.push(() => db.drop());
    const store = new PostgresEventStore({ url: db.url });
    cleanups.push(() => store.close());
    await store.ready(); // the schema, before the race (the race on creating it is tested by the writers anyway)

    const acks: Acks = [];
    let killed = false;
    const victim = writer(db.url, 'B', acks, (n) => {
      // in the middle of its appends, without any chance to clean up
      if (n === 60 && !killed) {
        killed = true;
        victim.kill('SIGKILL');
      }
    });
    const others = ['A', 'C', 'D'].map((id) => writer(db.url, id, acks));
    const dead = await victim;
    expect(dead.signal).toBe('SIGKILL');
    // B again: it resumes after its own last event in the stream
    const results = await Promise.all([...others, writer(db.url, 'B', acks)]);
    for (const r of results) expect(r.exitCode, String(r.stderr)).toBe(0);

    const events = await store.read('shared');
    expect(events.map((e) => e.version)).toEqual(Array.from({ length: 800 }, (_, i) => i + 1));
    for (const id of ['A', 'B', 'C', 'D']) {
      const mine = events
        .filter((e) => (e.data as { writer: string }).writer === id)
        .map((e) => (e.data as { i: number }).i);
      // each writer's events all there, once, in its own order
      expect(mine).toEqual(Array.from({ length: 200 }, (_, i) => i));
    }
    // every acknowledged append is in the stream at the version it was acknowledged with
    expect(acks.length).toBeGreaterThanOrEqual(800 - 1);
    for (const a of acks) expect(events[a.version - 1]!.data).toEqual({ writer: a.writer, i: a.i });
  }, 60_000);
});
