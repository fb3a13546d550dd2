/**
 * GET /arena/stream through the shared fan-out: one store subscription for
 * every client, a client resuming from an old id while events keep coming gets
 * each event once and in order, and a client that stops reading loses and
 * reorders nothing while the others are not held back.
 */
import { request, type IncomingMessage } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { Router } from '../../../src/server/router.js';
import { serveArenaStream } from '../../../src/server/arena-stream.js';
import { MemoryEventStore } from '../../../src/events/memory.js';
import type { EventFilter, SubscribeOptions } from '../../../src/arena/event-store.js';
import { frameReader } from '../../helpers/sse.js';
import { serve } from './helpers.js';

const responses: IncomingMessage[] = [];
afterEach(() => {
  for (const res of responses.splice(0)) res.destroy();
});

/** counts the store subscriptions the server opens; a read answers late, with what was there when asked */
class CountingStore extends MemoryEventStore {
  subscriptions = 0;
  readDelayMs = 0;
  override async read(streamId: string, fromVersion?: number) {
    const events = await super.read(streamId, fromVersion);
    await new Promise((r) => setTimeout(r, this.readDelayMs));
    return events;
  }
  override subscribe(filter: EventFilter, fromVersion?: number, options?: SubscribeOptions) {
    this.subscriptions++;
    return super.subscribe(filter, fromVersion, options);
  }
}

async function setup() {
  const store = new CountingStore();
  const router = new Router({ log: () => {}, sse: { heartbeatMs: 0, maxQueue: 5000 } });
  router.get('/arena/stream', (ctx) => serveArenaStream(ctx, store, 'arena'));
  const s = await serve(router);
  return { store, url: `${s.url}/arena/stream` };
}

/** resolves once the `ready` frame arrived, so the server has registered the client */
function connect(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ res: IncomingMessage; ids: (count: number) => Promise<number[]> }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { Accept: 'text/event-stream', ...headers } }, (res) => {
      responses.push(res);
      res.setEncoding('utf8');
      const ids: number[] = [];
      const waiters: Array<() => void> = [];
      let isReady = false;
      const read = frameReader((frame) => {
        if (frame.id !== undefined && /^\d+$/.test(frame.id)) ids.push(Number(frame.id));
        if (frame.event === 'ready' && !isReady) {
          isReady = true;
          resolve({ res, ids: until });
        }
      });
      res.on('data', (chunk: string) => {
        read(chunk);
        for (const w of waiters.splice(0)) w();
      });
      function until(count: number): Promise<number[]> {
        return new Promise((done, fail) => {
          const check = () => (ids.length >= count ? done(ids.slice()) : waiters.push(check));
          res.once('close', () => fail(new Error(`stream closed after ${ids.length} of ${count} events`)));
          check();
        });
      }
    });
    req.on('error', reject);
    req.end();
  });
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe('arena stream fan-out', () => {
  it('serves many clients from one store subscription, each event once and in order', async () => {
    const { store, url } = await setup();
    const clients = await Promise.all(range(1, 20).map(() => connect(url)));
    // one append of three events (one tick) and single appends across ticks
    await store.append(
      'arena',
      [1, 2, 3].map((n) => ({ type: 'tick', data: n })),
      0,
    );
    for (let v = 4; v <= 10; v++) await store.append('arena', [{ type: 'tick', data: v }], v - 1);
    for (const c of clients) expect(await c.ids(10)).toEqual(range(1, 10));
    expect(store.subscriptions).toBe(1);
  });

  it('a client resuming from an old id while events keep coming gets every event once, in order', async () => {
    const { store, url } = await setup();
    store.readDelayMs = 30; // the catch-up read is slow: what is appended meanwhile reaches the client only live
    for (let v = 1; v <= 50; v++) await store.append('arena', [{ type: 'tick', data: v }], v - 1);
    const live = await connect(url);
    let v = 50;
    const appending = (async () => {
      for (; v < 150; v++) {
        await store.append('arena', [{ type: 'tick', data: v + 1 }], v);
        if (v % 10 === 0) await new Promise((r) => setTimeout(r, 2));
      }
    })();
    const resumed = await connect(url, { 'Last-Event-ID': '20' });
    await appending;
    expect(await resumed.ids(130)).toEqual(range(21, 150));
    expect(await live.ids(100)).toEqual(range(51, 150));
  });

  it('a client that stops reading loses and reorders nothing; a reading client is not held back', async () => {
    const { store, url } = await setup();
    const slow = await connect(url);
    slow.res.pause(); // its socket fills, write() returns false, its frames queue on the server
    const fast = await connect(url);
    const padding = 'x'.repeat(32 * 1024); // 300 × 32 KiB, far over the socket buffers
    for (let v = 1; v <= 300; v++) {
      await store.append('arena', [{ type: 'tick', data: { v, padding } }], v - 1);
      if (v % 30 === 0) await new Promise((r) => setImmediate(r));
    }
    expect(await fast.ids(300)).toEqual(range(1, 300));
    slow.res.resume();
    expect(await slow.ids(300)).toEqual(range(1, 300));
  });
});
