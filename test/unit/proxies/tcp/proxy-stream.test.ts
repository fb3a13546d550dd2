import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { startTcpProxy, type TcpProxy } from '../../../../src/proxies/tcp/proxy.js';
import { createRandom } from '../../../../src/shared/random.js';
import {
  closeAll,
  dial,
  ending,
  readBytes,
  fastest,
  roundTrip,
  settlesWithin,
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
  proxy = await startTcpProxy({ listen: { port: 0 }, upstream: { host: '127.0.0.1', port }, random: createRandom(3) });
  return proxy;
}

describe('tcp proxy: bandwidth', () => {
  it('paces each direction at bytes_per_s, within tolerance', async () => {
    const upstream = await startRecorder();
    const p = await proxyTo(upstream.port);
    const client = await dial(p.port);
    await until(() => upstream.conns.length === 1);
    const { report } = p.applyFault({ id: 'bw', type: 'bandwidth', params: { bytes_per_s: 2_000_000 } });
    expect(report).toMatchObject({ connections_affected: 1, params: { bytes_per_s: 2_000_000 } });

    const size = 1_000_000;
    const start = performance.now();
    client.write(Buffer.alloc(size, 1));
    await until(() => upstream.conns[0]!.total() === size, 5000);
    const upSeconds = (performance.now() - start) / 1000;
    // the first 1/50 s slice goes at once, the rest at 2 MB/s: 0.49 s
    expect(upSeconds).toBeGreaterThan(0.49 * 0.85);
    expect(upSeconds).toBeLessThan(0.49 * 1.5);

    const down = readBytes(client, size / 2);
    const downStart = performance.now();
    upstream.conns[0]!.socket.write(Buffer.alloc(size / 2, 2));
    await down;
    const downSeconds = (performance.now() - downStart) / 1000;
    expect(downSeconds).toBeGreaterThan(0.24 * 0.85);
    expect(downSeconds).toBeLessThan(0.24 * 1.5);
  });

  it('the slowest of two bandwidth limits wins; removing it restores full speed', async () => {
    const p = await proxyTo(await startEcho());
    const client = await dial(p.port);
    p.applyFault({ id: 'fast', type: 'bandwidth', params: { bytes_per_s: 50_000_000 } });
    const slow = p.applyFault({ id: 'slow', type: 'bandwidth', params: { bytes_per_s: 100_000 } });
    const payload = Buffer.alloc(40_000, 3);
    expect(await roundTrip(client, payload)).toBeGreaterThan(300);
    await slow.revert!();
    const after = Math.min(await roundTrip(client, payload), await roundTrip(client, payload));
    expect(after).toBeLessThan(150);
  });
});

describe('tcp proxy: timeout', () => {
  it('stops data and closes open connections timeout_ms after the fault starts, and new ones timeout_ms after they open', async () => {
    const p = await proxyTo(await startEcho());
    const open = await dial(p.port);
    await roundTrip(open);
    const start = performance.now();
    const closed = ending(open);
    const echoed = readBytes(open, 2).then(
      (b) => b.toString(),
      (err: Error) => err.message,
    );
    p.applyFault({ id: 'to', type: 'timeout', params: { timeout_ms: 200 } });
    open.write('hi');
    expect(await closed).toBe('closed');
    const elapsed = performance.now() - start;
    expect(elapsed).toBeGreaterThanOrEqual(195);
    expect(elapsed).toBeLessThan(600);
    expect(await echoed).toMatch(/ended after 0 of 2/);

    const fresh = await dial(p.port);
    const freshStart = performance.now();
    expect(await ending(fresh)).toBe('closed');
    expect(performance.now() - freshStart).toBeGreaterThanOrEqual(190);
    expect(p.stats().connections_timed_out).toBe(2);
  });

  it('reverted before T: nothing is closed and held bytes flow', async () => {
    const p = await proxyTo(await startEcho());
    const open = await dial(p.port);
    const { revert } = p.applyFault({ id: 'to', type: 'timeout', params: { timeout_ms: 300 } });
    const echoed = readBytes(open, 2);
    open.write('hi');
    expect(await settlesWithin(echoed, 100)).toBe(false);
    await revert!();
    expect((await echoed).toString()).toBe('hi');
    await new Promise((r) => setTimeout(r, 350));
    expect(await fastest(open)).toBeLessThan(100);
    expect(p.stats().connections_timed_out).toBe(0);
  });

  it('timeout_ms 0 never closes: data stays held until the fault ends (as in Toxiproxy)', async () => {
    const p = await proxyTo(await startEcho());
    const open = await dial(p.port);
    const { revert } = p.applyFault({ id: 'to', type: 'timeout', params: { timeout_ms: 0 } });
    const echoed = readBytes(open, 2);
    open.write('hi');
    expect(await settlesWithin(echoed, 250)).toBe(false);
    expect(open.destroyed).toBe(false);
    await revert!();
    expect((await echoed).toString()).toBe('hi');
    expect(p.stats().connections_timed_out).toBe(0);
  });

  it('at probability 0 never acts', async () => {
    const p = await proxyTo(await startEcho());
    const open = await dial(p.port);
    p.applyFault({ id: 'to', type: 'timeout', params: { timeout_ms: 50, probability: 0 } });
    await new Promise((r) => setTimeout(r, 120));
    expect(await fastest(open)).toBeLessThan(100);
    expect(p.stats().connections_timed_out).toBe(0);
  });
});

describe('tcp proxy: bytes intact', () => {
  it('10 MB each way arrive unchanged and in order, with faults switched on and off mid-stream', async () => {
    const p = await proxyTo(await startEcho());
    const client = await dial(p.port);
    const data = randomBytes(10 * 1024 * 1024);
    const echoed = readBytes(client, data.length);
    const writing = (async () => {
      for (let i = 0; i < data.length; i += 64 * 1024) {
        if (!client.write(data.subarray(i, i + 64 * 1024))) await new Promise((r) => client.once('drain', r));
      }
    })();
    // the faulted path (queue, jitter, pacing) comes and goes while bytes are in flight both ways
    for (let round = 0; round < 3; round++) {
      await new Promise((r) => setTimeout(r, 15));
      const lat = p.applyFault({ id: `lat-${round}`, type: 'latency', params: { latency_ms: 3, jitter_ms: 3 } });
      const bw = p.applyFault({ id: `bw-${round}`, type: 'bandwidth', params: { bytes_per_s: 200_000_000 } });
      await new Promise((r) => setTimeout(r, 15));
      await lat.revert!();
      await bw.revert!();
    }
    await writing;
    const got = await echoed;
    expect(got.length).toBe(data.length);
    expect(got.equals(data)).toBe(true);
    expect(p.stats()).toMatchObject({
      bytes_client_to_upstream: data.length,
      bytes_upstream_to_client: data.length,
      faults_injected: 6,
      faults_active: 0,
    });
  });

  it('passes a half-close through: the client ends, the upstream answer still arrives', async () => {
    const p = await proxyTo(await startEcho());
    const client = await dial(p.port);
    const reply = readBytes(client, 5);
    client.end('hello');
    expect((await reply).toString()).toBe('hello');
    expect(await ending(client)).toBe('closed');
    await until(() => p.stats().connections_open === 0);
  });
});
