/**
 * One encoded frame shared by many streams, writes through res.write, and backpressure:
 * a client that stops reading gets every frame, in order, once it reads again,
 * while a client that keeps reading is not held back by it.
 */
import { request, type IncomingMessage } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { Router } from '../../../src/server/router.js';
import { encodeFrame, formatFrame, type SseStream } from '../../../src/server/sse.js';
import { serve } from './helpers.js';
import { frameReader } from '../../helpers/sse.js';

const responses: IncomingMessage[] = [];
afterEach(() => {
  for (const res of responses.splice(0)) res.destroy();
});

function connect(url: string): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { Accept: 'text/event-stream' } }, (res) => {
      responses.push(res);
      resolve(res);
    });
    req.on('error', reject);
    req.end();
  });
}

/** the ids of the `tick` frames read until `count` arrived */
function readIds(res: IncomingMessage, count: number): Promise<number[]> {
  return new Promise((resolve, reject) => {
    const ids: number[] = [];
    const read = frameReader((frame) => {
      if (frame.event === 'tick' && frame.id !== undefined && /^\d+$/.test(frame.id)) ids.push(Number(frame.id));
    });
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      read(chunk);
      if (ids.length >= count) resolve(ids);
    });
    res.on('error', reject);
    res.on('close', () =>
      ids.length >= count ? resolve(ids) : reject(new Error(`stream closed after ${ids.length} of ${count} frames`)),
    );
    res.resume();
  });
}

describe('SSE fan-out', () => {
  it('encodeFrame is formatFrame as bytes', () => {
    const frame = { event: 'tick', id: 7, data: { text: 'é\nx' } };
    expect(encodeFrame(frame).toString('utf8')).toBe(formatFrame(frame));
  });

  it('a paused client loses and reorders nothing under backpressure; a reading client gets everything too', async () => {
    const router = new Router({ log: () => {}, sse: { heartbeatMs: 0, maxQueue: 5000 } });
    const streams: SseStream[] = [];
    router.get('/events', (ctx) => {
      streams.push(ctx.sse());
    });
    const s = await serve(router);
    const slow = await connect(`${s.url}/events`);
    slow.pause(); // stops reading: the server's socket buffer fills, write() returns false, frames queue
    const fast = await connect(`${s.url}/events`);
    while (streams.length < 2) await new Promise((r) => setTimeout(r, 5));
    const count = 400;
    const fastIds = readIds(fast, count);
    const padding = 'x'.repeat(32 * 1024); // 400 × 32 KiB = 12.5 MiB, far over the socket buffers
    for (let id = 1; id <= count; id++) {
      // one Buffer for both streams, as arena-stream does for a stored event
      const frame = encodeFrame({ event: 'tick', id, data: { id, padding } });
      for (const stream of streams) expect(stream.sendEncoded(frame)).toBe(true);
      if (id % 50 === 0) await new Promise((r) => setImmediate(r)); // some in one tick, some across ticks
    }
    expect(Math.max(...streams.map((stream) => stream.pending))).toBeGreaterThan(0); // the paused client really is behind
    const expected = Array.from({ length: count }, (_, i) => i + 1);
    expect(await fastIds).toEqual(expected);
    expect(await readIds(slow, count)).toEqual(expected);
    expect(streams.every((stream) => !stream.dropped)).toBe(true);
  });
});
