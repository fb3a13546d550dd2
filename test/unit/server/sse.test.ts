import { connect } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { Router } from '../../../src/server/router.js';
import { formatFrame, type SseStream } from '../../../src/server/sse.js';
import { frameJson, openSse } from '../../helpers/sse.js';
import { serve } from './helpers.js';

describe('formatFrame', () => {
  it('writes event, id and one data line per line, and strips CR/LF from event and id', () => {
    expect(formatFrame({ event: 'x', id: 3, data: { a: 1 } })).toBe('event: x\nid: 3\ndata: {"a":1}\n\n');
    expect(formatFrame({ data: 'one\ntwo\r\nthree' })).toBe('data: one\ndata: two\ndata: three\n\n');
    expect(formatFrame({ event: 'a\r\nb', id: '1\n2\u0000', data: 1 })).toBe('event: a  b\nid: 1 2\ndata: 1\n\n');
  });
});

describe('SseStream', () => {
  it('flushes headers at once, sends retry once, frames, heartbeats, and cleans up when the client leaves', async () => {
    const router = new Router({ log: () => {}, sse: { heartbeatMs: 20 } });
    let stream: SseStream | undefined;
    let closedSeen = false;
    router.get('/events', (ctx) => {
      stream = ctx.sse();
      stream.onClose(() => (closedSeen = true));
    });
    const s = await serve(router);
    const conn = await openSse({ url: `${s.url}/events` });
    // the headers arrived before any event was sent
    expect(conn.status).toBe(200);
    expect(conn.headers['content-type']).toContain('text/event-stream');
    expect(conn.headers['cache-control']).toBe('no-cache, no-transform');
    expect(conn.headers['x-accel-buffering']).toBe('no');
    await conn.waitFor((f) => f.retry !== undefined);
    stream!.send({ event: 'tick', id: 1, data: { n: 1 } });
    const tick = await conn.waitFor((f) => f.event === 'tick');
    expect(tick.id).toBe('1');
    expect(frameJson(tick)).toEqual({ n: 1 });
    await conn.waitFor((f) => f.comments.includes('heartbeat'));
    expect(conn.frames.filter((f) => f.retry !== undefined)).toHaveLength(1);
    expect(router.openStreams).toBe(1);
    conn.close();
    await vi.waitFor(() => expect(closedSeen).toBe(true), { timeout: 10_000 });
    expect(stream!.closed).toBe(true);
    expect(stream!.send({ data: 1 })).toBe(false);
    expect(router.openStreams).toBe(0);
  });

  it('sends frames as an ordinary response body, in order, ending with the final frame', async () => {
    const router = new Router({ log: () => {}, sse: { heartbeatMs: 0 } });
    let stream: SseStream | undefined;
    router.get('/events', (ctx) => {
      stream = ctx.sse();
    });
    const s = await serve(router);
    const socket = connect(Number(new URL(s.url).port), '127.0.0.1');
    const reads: string[] = [];
    socket.setEncoding('latin1').on('data', (chunk: string) => reads.push(chunk));
    socket.write(
      `GET /events HTTP/1.1\r\nHost: ${new URL(s.url).host}\r\nAccept: text/event-stream\r\nConnection: close\r\n\r\n`,
    );
    const until = async (cond: () => boolean) => {
      for (let i = 0; i < 1000 && !cond(); i++) await new Promise((r) => setTimeout(r, 10));
    };
    await until(() => reads.join('').includes('retry: '));
    stream!.send({ event: 'a', id: 1, data: 1 });
    stream!.send({ event: 'b', id: 2, data: 2 });
    stream!.close({ event: 'end', data: 'bye' });
    await new Promise((r) => socket.once('close', r));
    const raw = reads.join('');
    const split = raw.indexOf('\r\n\r\n');
    const head = raw.slice(0, split);
    expect(head).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    // the standard framing of a body of unknown length, which res.write gives
    expect(head.toLowerCase()).toContain('transfer-encoding: chunked');
    expect(dechunk(raw.slice(split + 4))).toBe(
      'retry: 3000\n\nevent: a\nid: 1\ndata: 1\n\nevent: b\nid: 2\ndata: 2\n\nevent: end\ndata: bye\n\n',
    );
  });

  it('queues frames while the response waits for drain, then sends them all in order', async () => {
    const router = new Router({ log: () => {}, sse: { heartbeatMs: 0, maxQueue: 100_000 } });
    let stream: SseStream | undefined;
    router.get('/events', (ctx) => {
      stream = ctx.sse();
    });
    const s = await serve(router);
    const conn = await openSse({ url: `${s.url}/events` });
    await conn.waitFor((f) => f.retry !== undefined);
    const big = 'x'.repeat(64 * 1024);
    let sent = 0;
    // synchronously until res.write says the buffers are full and frames start to queue
    while (stream!.pending === 0 && sent < 10_000) stream!.send({ event: 'big', id: ++sent, data: big });
    expect(stream!.pending).toBeGreaterThan(0);
    for (let i = 0; i < 5; i++) stream!.send({ event: 'big', id: ++sent, data: big });
    const last = await conn.waitFor((f) => f.event === 'big' && f.id === String(sent), 60_000);
    expect(last.id).toBe(String(sent));
    expect(conn.frames.filter((f) => f.event === 'big').map((f) => Number(f.id))).toEqual(
      Array.from({ length: sent }, (_, i) => i + 1),
    );
    expect(stream!.pending).toBe(0);
    expect(stream!.dropped).toBe(false);
    conn.close();
  });

  it('drops a client that falls too far behind instead of buffering without bound', async () => {
    const router = new Router({ log: () => {}, sse: { heartbeatMs: 0, maxQueue: 10 } });
    let stream: SseStream | undefined;
    router.get('/events', (ctx) => {
      stream = ctx.sse();
    });
    const s = await serve(router);
    const conn = await openSse({ url: `${s.url}/events` });
    await conn.waitFor((f) => f.retry !== undefined);
    // sent synchronously, the socket buffer fills, write() returns false, frames queue, then the cap trips
    const big = 'x'.repeat(64 * 1024);
    let accepted = 0;
    for (let i = 0; i < 2000 && !stream!.closed; i++) if (stream!.send({ data: big })) accepted++;
    expect(stream!.dropped).toBe(true);
    expect(stream!.closed).toBe(true);
    expect(accepted).toBeLessThan(2000);
    conn.close();
  });

  it('sends open streams a final event on shutdown and ends them', async () => {
    const router = new Router({ log: () => {}, sse: { heartbeatMs: 0 } });
    router.get('/events', (ctx) => void ctx.sse());
    const s = await serve(router);
    const conn = await openSse({ url: `${s.url}/events` });
    await conn.waitFor((f) => f.retry !== undefined);
    await s.close('bye');
    await conn.ended;
    const last = conn.frames.at(-1)!;
    expect(last.event).toBe('shutdown');
    expect(frameJson(last)).toEqual({ reason: 'bye' });
  });
});

/** the payload of a chunked HTTP/1.1 body */
function dechunk(body: string): string {
  let out = '';
  let at = 0;
  for (;;) {
    const eol = body.indexOf('\r\n', at);
    const size = Number.parseInt(body.slice(at, eol), 16);
    if (!size) return out;
    out += body.slice(eol + 2, eol + 2 + size);
    at = eol + 2 + size + 2;
  }
}
