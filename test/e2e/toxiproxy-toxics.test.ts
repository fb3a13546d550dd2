/**
 * Each toxic of `arena toxiproxy` measured on real loopback connections, in the direction it names:
 * the faults Toxiproxy users most often find wrong (latency in one direction only, connections opened
 * around a change, toxicity 0 still acting) and a seed that picks the same connections twice.
 */
import type { Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ARENA_BIN } from '../helpers/cli.js';
import { startListening, type Listening } from '../helpers/listening.js';
import {
  closeAll,
  dial,
  dialEnding,
  ending,
  fastest,
  readBytes,
  roundTrip,
  settlesWithin,
  startEcho,
  startRecorder,
  until,
} from '../helpers/tcp.js';

let server: Listening | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
  await closeAll();
});

interface Api {
  url: string;
  call(method: string, path: string, body?: unknown): Promise<{ status: number; json: unknown }>;
  /** creates a proxy to 127.0.0.1:upstreamPort and returns the port it listens on */
  proxy(name: string, upstreamPort: number): Promise<number>;
  toxic(proxy: string, body: Record<string, unknown>): Promise<void>;
}

async function start(seed = 1): Promise<Api> {
  server = await startListening('node', [ARENA_BIN, 'toxiproxy', '--port', '0', '--seed', String(seed)], {
    pattern: /listening on (http:\/\/127\.0\.0\.1:\d+)/,
  });
  const url = server.url;
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${url}${path}`, { method, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    const text = await res.text();
    return { status: res.status, json: text ? JSON.parse(text) : undefined };
  };
  return {
    url,
    call,
    async proxy(name, upstreamPort) {
      const { status, json } = await call('POST', '/proxies', {
        name,
        listen: '127.0.0.1:0',
        upstream: `127.0.0.1:${upstreamPort}`,
      });
      expect(status).toBe(201);
      const listen = (json as { listen: string }).listen;
      return Number(listen.slice(listen.lastIndexOf(':') + 1));
    },
    async toxic(proxy, body) {
      const { status, json } = await call('POST', `/proxies/${proxy}/toxics`, body);
      expect(status, JSON.stringify(json)).toBe(200);
    },
  };
}

/** ms from writing `bytes` on `from` until they have all arrived on `to` */
async function oneWay(from: Socket, to: Socket, bytes = Buffer.from('ping')): Promise<number> {
  const began = performance.now();
  const arrived = readBytes(to, bytes.length);
  from.write(bytes);
  await arrived;
  return performance.now() - began;
}

/** the fastest of a few one-way trips: a loaded machine can stall one trip, a toxic stalls them all */
async function fastestOneWay(from: Socket, to: Socket): Promise<number> {
  let best = Infinity;
  for (let i = 0; i < 3; i++) best = Math.min(best, await oneWay(from, to));
  return best;
}

describe('arena toxiproxy toxics on real connections (e2e)', () => {
  it('latency acts in the direction its stream names, and only there', async () => {
    const recorder = await startRecorder();
    const api = await start();
    const port = await api.proxy('rec', recorder.port);
    const client = await dial(port);
    await until(() => recorder.conns.length === 1);
    const peer = recorder.conns[0]!.socket;

    await api.toxic('rec', { type: 'latency', stream: 'upstream', attributes: { latency: 300 } });
    expect(await oneWay(client, peer)).toBeGreaterThanOrEqual(290);
    expect(await fastestOneWay(peer, client)).toBeLessThan(290);

    expect((await api.call('DELETE', '/proxies/rec/toxics/latency_upstream')).status).toBe(204);
    await api.toxic('rec', { type: 'latency', stream: 'downstream', attributes: { latency: 300 } });
    expect(await oneWay(peer, client)).toBeGreaterThanOrEqual(290);
    expect(await fastestOneWay(client, peer)).toBeLessThan(290);
  });

  it('a toxic acts on the connections open when it is added and on those opened after; removing it frees both', async () => {
    const echo = await startEcho();
    const api = await start();
    const port = await api.proxy('echo', echo);
    const before = await dial(port);
    await roundTrip(before);
    await api.toxic('echo', { type: 'latency', attributes: { latency: 250 } });
    const after = await dial(port);
    expect(await roundTrip(before)).toBeGreaterThanOrEqual(240);
    expect(await roundTrip(after)).toBeGreaterThanOrEqual(240);
    await api.call('DELETE', '/proxies/echo/toxics/latency_downstream');
    expect(await fastest(before)).toBeLessThan(240);
    expect(await fastest(after)).toBeLessThan(240);
  });

  it('bandwidth paces the downstream to its rate in KB/s while the upstream runs free', async () => {
    const recorder = await startRecorder();
    const api = await start();
    const port = await api.proxy('bw', recorder.port);
    const client = await dial(port);
    await until(() => recorder.conns.length === 1);
    const peer = recorder.conns[0]!.socket;
    await api.toxic('bw', { type: 'bandwidth', attributes: { rate: 100 } });
    const payload = Buffer.alloc(60_000, 7);
    // 60 KB at 100 KB/s: 0.6 s (a first slice may go at once)
    expect(await oneWay(peer, client, payload)).toBeGreaterThanOrEqual(500);
    expect(await oneWay(client, peer, payload)).toBeLessThan(500);
  });

  it('limit_data lets its bytes through, then closes the connection', async () => {
    const echo = await startEcho();
    const api = await start();
    const port = await api.proxy('lim', echo);
    await api.toxic('lim', { type: 'limit_data', attributes: { bytes: 10 } });
    const client = await dial(port);
    let got = 0;
    client.on('data', (c: Buffer) => (got += c.length));
    const closed = ending(client);
    client.write(Buffer.alloc(100, 1));
    expect(await closed).toBe('closed');
    expect(got).toBe(10);
  });

  it('timeout drops the data and closes after its time; timeout 0 holds the connection open', async () => {
    const echo = await startEcho();
    const api = await start();
    const port = await api.proxy('to', echo);
    await api.toxic('to', { type: 'timeout', attributes: { timeout: 300 } });
    const client = await dial(port);
    let got = 0;
    client.on('data', (c: Buffer) => (got += c.length));
    const began = performance.now();
    const closed = ending(client);
    client.write('ping');
    expect(await closed).toBe('closed');
    expect(performance.now() - began).toBeGreaterThanOrEqual(280);
    expect(got).toBe(0);

    await api.call('POST', '/proxies/to/toxics/timeout_downstream', { attributes: { timeout: 0 } });
    const held = await dial(port);
    const heldEnd = ending(held);
    held.write('ping');
    expect(await settlesWithin(heldEnd, 500)).toBe(false);
    // deleting a timeout closes the connections it held, as Toxiproxy's Cleanup does
    await api.call('DELETE', '/proxies/to/toxics/timeout_downstream');
    expect(await heldEnd).toBe('closed');
  });

  it('reset_peer resets the connection once data comes, after its timeout', async () => {
    const echo = await startEcho();
    const api = await start();
    const port = await api.proxy('rst', echo);
    await api.toxic('rst', { type: 'reset_peer', stream: 'upstream', attributes: { timeout: 200 } });
    const client = await dial(port);
    const began = performance.now();
    const end = ending(client);
    client.write('ping');
    expect(await end).toBe('ECONNRESET');
    expect(performance.now() - began).toBeGreaterThanOrEqual(180);
  });

  it('slow_close holds the end of stream for its delay', async () => {
    const recorder = await startRecorder();
    const api = await start();
    const port = await api.proxy('sc', recorder.port);
    await api.toxic('sc', { type: 'slow_close', attributes: { delay: 400 } });
    const client = await dial(port);
    await until(() => recorder.conns.length === 1);
    const began = performance.now();
    const ended = new Promise<number>((resolve) => client.once('end', () => resolve(performance.now() - began)));
    client.resume();
    recorder.conns[0]!.socket.end();
    expect(await ended).toBeGreaterThanOrEqual(380);
  });

  it('slicer delivers the bytes unchanged in small pieces spaced by its delay', async () => {
    const recorder = await startRecorder();
    const api = await start();
    const port = await api.proxy('sl', recorder.port);
    await api.toxic('sl', {
      type: 'slicer',
      stream: 'upstream',
      attributes: { average_size: 10, size_variation: 0, delay: 30_000 },
    });
    const client = await dial(port);
    await until(() => recorder.conns.length === 1);
    const conn = recorder.conns[0]!;
    const data = Buffer.from('abcdefghij'.repeat(8));
    const received = readBytes(conn.socket, data.length);
    client.write(data);
    expect((await received).equals(data)).toBe(true);
    // 80 bytes cut near 10: 8 pieces 30 ms apart arrive as several reads, not one
    expect(conn.arrivals.length).toBeGreaterThanOrEqual(4);
    expect(conn.arrivals.at(-1)!.at - conn.arrivals[0]!.at).toBeGreaterThanOrEqual(150);
  });

  it('toxicity 0 never acts; toxicity 0.5 picks 40-60% of 200 connections, the same ones in another process with the same seed', async () => {
    const echo = await startEcho();
    let api = await start(42);
    /** which of n sequential connections the toxic (limit_data 1 byte) cut: true = cut */
    const picks = async (toxicity: number, n: number): Promise<boolean[]> => {
      const port = await api.proxy('t', echo);
      await api.toxic('t', { type: 'limit_data', toxicity, attributes: { bytes: 1 } });
      const cut: boolean[] = [];
      for (let i = 0; i < n; i++) {
        const client = await dial(port);
        let got = 0;
        client.on('data', (c: Buffer) => (got += c.length));
        const closed = ending(client);
        client.write('ping');
        await until(() => got >= 4 || client.destroyed, 10_000);
        cut.push(got < 4);
        client.destroy();
        await closed;
      }
      expect((await api.call('DELETE', '/proxies/t')).status).toBe(204);
      return cut;
    };
    expect((await picks(0, 50)).filter(Boolean)).toHaveLength(0);
    const first = await picks(0.5, 200);
    const share = first.filter(Boolean).length / first.length;
    expect(share).toBeGreaterThanOrEqual(0.4);
    expect(share).toBeLessThanOrEqual(0.6);
    await server!.stop();
    api = await start(42);
    expect(await picks(0.5, 200)).toEqual(first);
  });

  it('a disabled proxy refuses connections; enabling it again accepts them with its toxics kept', async () => {
    const echo = await startEcho();
    const api = await start();
    const port = await api.proxy('d', echo);
    await api.toxic('d', { type: 'latency', attributes: { latency: 200 } });
    await api.call('POST', '/proxies/d', { enabled: false });
    expect(await dialEnding(port)).toBe('ECONNREFUSED');
    await api.call('POST', '/proxies/d', { enabled: true });
    expect(await roundTrip(await dial(port))).toBeGreaterThanOrEqual(190);
  });
});
