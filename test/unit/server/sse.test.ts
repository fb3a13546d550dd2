import { connect } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { Router } from '../../../src/server/router.js';
import { formatFrame, type SSEStream } from '../../../src/server/sse.js';
import { frameJSON, openSSE } from '../../helpers/sse.js';
import { serve } from './helpers.js';

describe('formatFrame', () => {
  it('writes event, id and one data line per line, and strips CR/LF from event and id', () => {
    expect(formatFrame({ event: 'x', id: 3, data: { a: 1 } })).toBe('event: x\nid: 3\ndata: {"a":1}\n\n');
    expect(formatFrame({ data: 'one\ntwo\r\nthree' })).toBe('data: one\ndata: two\ndata: three\n\n');
    expect(formatFrame({ event: 'a\r\nb', id: '1\n2\u0000', data: 1 })).toBe('event: a  b\nid: 1 2\ndata: 1\n\n');
  });
});

describe('SSEStream', () => {
  it('flushes headers at once, sends retry once, frames, heartbeats, and cleans up when the client leaves', async () => {
    const router = new Router({ log: () => {}, sse: { heartbeatMs: 20 } });
    let stream: SSEStream | undefined;
    let closedSeen = false;
    router.get('/events', (ctx) => {
      stream = ctx.sse();
      stream.onClose(() => (closedSeen = true));
    });
    const s = await serve(router);
    const conn = await openSSE({ url: `${s.url}/events` });
    // the headers arrived before any event was sent
    expect(conn.status).toBe(200);
    expect(conn.headers['content-type']).toContain('text/event-stream');
    expect(conn.headers['cache-control']).toBe('no-cache, no-transform');
    expect(conn.headers['x-accel-buffering']).toBe('no');
    await conn.waitFor((f) => f.retry !== undefined);
    stream!.send({ event: 'tick', id: 1, data: { n: 1 } });
    const tick = await conn.waitFor((f) => f.event === 'tick');
    expect(tick.id).toBe('1');
    expect(frameJSON(tick)).toEqual({ n: 1 });
    await conn.waitFor((f) => f.comments.includes('heartbeat'));
    expect(conn.frames.filter((f) => f.retry !== undefined)).toHaveLength(1);
    expect(router.openStreams).toBe(1);
    conn.close();
    await vi.waitFor(() => expect(closedSeen).toBe(true), { timeout: 10_000 });
    expect(stream!.closed).toBe(true);
    expect(stream!.send({ data: 1 })).toBe(false);
    expect(router.openStreams).toBe(0);
  });

  it('sends frames as the body itself, up to the close (no chunk framing)', async () => {
    const router = new Router({ log: () => {}, sse: { heartbeatMs: 0 } });
    let stream: SSEStream | undefined;
    router.get('/events', (ctx) => {
      stream = ctx.sse();
    });
    const s = await serve(router);
    const socket = connect(Number(new URL(s.url).port), '127.0.0.1');
    const reads: string[] = [];
    socket.setEncoding('latin1').on('data', (chunk: string) => reads.push(chunk));
    socket.write(`GET /events HTTP/1.1\r\nHost: ${new URL(s.url).host}\r\nAccept: text/event-stream\r\n\r\n`);
    const until = async (cond: () => boolean) => {
      for (let i = 0; i < 200 && !cond(); i++) await new Promise((r) => setTimeout(r, 10));
    };
    await until(() => reads.join('').includes('retry: '));
    const head = reads.join('');
    expect(head).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(head.toLowerCase()).not.toContain('transfer-encoding');
    expect(head.toLowerCase()).toContain('connection: close');
    reads.length = 0;
    stream!.send({ event: 'a', id: 1, data: 1 });
    stream!.send({ event: 'b', id: 2, data: 2 });
    stream!.close({ event: 'end', data: 'bye' });
    await new Promise((r) => socket.once('close', r));
    // raw frames, nothing around them: the body ends where the connection does
    expect(reads.join('')).toBe('event: a\nid: 1\ndata: 1\n\nevent: b\nid: 2\ndata: 2\n\nevent: end\ndata: bye\n\n');
  });

  it('drops a client that falls too far behind instead of buffering without bound', async () => {
    const router = new Router({ log: () => {}, sse: { heartbeatMs: 0, maxQueue: 10 } });
    let stream: SSEStream | undefined;
    router.get('/events', (ctx) => {
      stream = ctx.sse();
    });
    const s = await serve(router);
    const conn = await openSSE({ url: `${s.url}/events` });
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
    const conn = await openSSE({ url: `${s.url}/events` });
    await conn.waitFor((f) => f.retry !== undefined);
    await s.close('bye');
    await conn.ended;
    const last = conn.frames.at(-1)!;
    expect(last.event).toBe('shutdown');
    expect(frameJSON(last)).toEqual({ reason: 'bye' });
  });
});
