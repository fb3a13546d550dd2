import { afterEach, describe, expect, it } from 'vitest';
import { startTcpProxy, type TcpProxy } from '../../../../src/proxies/tcp/proxy.js';
import { createRandom } from '../../../../src/shared/random.js';
import {
  closeAll,
  dial,
  readBytes,
  fastest,
  roundTrip,
  startEcho,
  startRecorder,
  until,
} from '../../../helpers/tcp.js';

let proxy: TcpProxy | undefined;
afterEach(async () => {
  await proxy?.close();
  proxy = undefined;
  await closeAll();
});

async function proxyTo(port: number) {
  proxy = await startTcpProxy({ listen: { port: 0 }, upstream: { host: '127.0.0.1', port }, random: createRandom(7) });
  return proxy;
}

const latency = (id: string, latency_ms: number, extra: Record<string, unknown> = {}) => ({
  id,
  type: 'latency',
  params: { latency_ms, ...extra },
});

/** one byte client → upstream, then one byte upstream → client; each leg timed on its own */
async function oneWayDelays(
  client: Awaited<ReturnType<typeof dial>>,
  conn: { socket: import('node:net').Socket; arrivals: Array<{ at: number }> },
) {
  const before = conn.arrivals.length;
  const sentUp = performance.now();
  client.write('u');
  await until(() => conn.arrivals.length > before);
  const up = conn.arrivals[before]!.at - sentUp;
  const reply = readBytes(client, 1);
  const sentDown = performance.now();
  conn.socket.write('d');
  await reply;
  return { up, down: performance.now() - sentDown };
}

describe('tcp proxy: latency', () => {
  it('delays both directions, on a connection opened before the fault and on one opened after', async () => {
    const upstream = await startRecorder();
    const p = await proxyTo(upstream.port);
    const before = await dial(p.port);
    await until(() => upstream.conns.length === 1);
    const applied = p.applyFault(latency('lat', 80));
    expect(applied.report).toMatchObject({
      type: 'latency',
      connections_open: 1,
      connections_affected: 1,
      new_connections: 'affected',
    });

    const old = await oneWayDelays(before, upstream.conns[0]!);
    const after = await dial(p.port);
    await until(() => upstream.conns.length === 2);
    const fresh = await oneWayDelays(after, upstream.conns[1]!);
    for (const leg of [old.up, old.down, fresh.up, fresh.down]) {
      expect(leg).toBeGreaterThanOrEqual(78);
      // a loaded machine only ever adds delay: the upper bound leaves room for that
      expect(leg).toBeLessThan(250);
    }
  });

  it('reverting restores speed for open connections without losing or reordering bytes', async () => {
    const p = await proxyTo(await startEcho());
    const client = await dial(p.port);
    const baseline = await fastest(client);
    const { revert } = p.applyFault(latency('lat', 60, { jitter_ms: 20 }));
    expect(await roundTrip(client)).toBeGreaterThanOrEqual(80);
    // bytes written under latency and right after the revert come back in order
    const sent = Buffer.from(Array.from({ length: 200 }, (_, i) => `m${i};`).join(''));
    const echoed = readBytes(client, sent.length);
    for (let i = 0; i < sent.length; i += 50) client.write(sent.subarray(i, i + 50));
    await revert!();
    expect((await echoed).equals(sent)).toBe(true);
    // the fault made every trip ≥ 120 ms; without it the fastest of three is back near the baseline
    expect(await fastest(client)).toBeLessThan(baseline + 40);
    expect(p.stats().faults_active).toBe(0);
  });

  it('jitter spreads the delay around latency_ms, within ± jitter_ms', async () => {
    const p = await proxyTo(await startEcho());
    const client = await dial(p.port);
    p.applyFault(latency('lat', 40, { jitter_ms: 30 }));
    const trips: number[] = [];
    for (let i = 0; i < 8; i++) trips.push(await roundTrip(client));
    // each round trip crosses the proxy twice: between 2 × 10 and 2 × 70 ms
    for (const t of trips) expect(t).toBeGreaterThanOrEqual(19);
    trips.sort((a, b) => a - b);
    // the median, not every trip, is bounded above: a loaded machine can stall one trip
    expect(trips[4]).toBeLessThan(170);
    expect(Math.max(...trips) - Math.min(...trips)).toBeGreaterThan(5);
  });

  it('stacks as independent stages: two latencies add up, removing one leaves the other', async () => {
    const upstream = await startRecorder();
    const p = await proxyTo(upstream.port);
    const client = await dial(p.port);
    await until(() => upstream.conns.length === 1);
    p.applyFault(latency('a', 60));
    const b = p.applyFault(latency('b', 60));
    expect((await oneWayDelays(client, upstream.conns[0]!)).up).toBeGreaterThanOrEqual(118);
    await b.revert!();
    const legs = [await oneWayDelays(client, upstream.conns[0]!), await oneWayDelays(client, upstream.conns[0]!)];
    expect(Math.min(...legs.map((l) => l.up))).toBeGreaterThanOrEqual(58);
    expect(Math.min(...legs.map((l) => l.up))).toBeLessThan(118);
  });

  it('misses no connection opened around the change: while accepting, while connecting upstream, just after', async () => {
    const p = await proxyTo(await startEcho());
    const dials = Array.from({ length: 20 }, () => dial(p.port));
    // the fault lands once the proxy has accepted some (whose upstream may still be connecting) and not others
    while (p.stats().connections_total < 3) await new Promise((r) => setImmediate(r));
    const { report } = p.applyFault(latency('lat', 50));
    const clients = await Promise.all(dials);
    const trips = await Promise.all(clients.map((c) => roundTrip(c)));
    for (const t of trips) expect(t).toBeGreaterThanOrEqual(98);
    // some were open when it was applied, the rest came after: every one of them is delayed
    expect(report!.connections_affected).toBeGreaterThan(0);
    expect(report!.connections_affected).toBeLessThan(20);
    expect(p.stats().connections_total).toBe(20);
  });

  it('at probability 0 never acts, on open or new connections', async () => {
    const p = await proxyTo(await startEcho());
    const open = await dial(p.port);
    const applied = p.applyFault(latency('lat', 300, { probability: 0 }));
    expect(applied.report).toMatchObject({ connections_affected: 0 });
    const fresh = await dial(p.port);
    expect(await fastest(open)).toBeLessThan(100);
    expect(await fastest(fresh)).toBeLessThan(100);
  });
});
