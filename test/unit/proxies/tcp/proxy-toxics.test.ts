/**
 * Toxiproxy's toxics as direction-aware stages of the TCP proxy: picked per connection from the seed,
 * combined with the arena's own faults, and keeping a limit's count across an update as Toxiproxy does.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startTcpProxy, type TcpProxy } from '../../../../src/proxies/tcp/proxy.js';
import type { ToxicSpec } from '../../../../src/proxies/tcp/toxic-spec.js';
import { parseToxicAttributes, ToxicAttributeError } from '../../../../src/proxies/tcp/toxic-spec.js';
import { createRandom } from '../../../../src/shared/random.js';
import { closeAll, dial, ending, readBytes, startEcho, startRecorder, until } from '../../../helpers/tcp.js';

const proxies: TcpProxy[] = [];
afterEach(async () => {
  await Promise.all(proxies.splice(0).map((p) => p.close()));
  await closeAll();
});

async function proxyTo(port: number, seed = 7): Promise<TcpProxy> {
  const proxy = await startTcpProxy({
    listen: { port: 0 },
    upstream: { host: '127.0.0.1', port },
    random: createRandom(seed),
  });
  proxies.push(proxy);
  return proxy;
}

const limit = (toxicity: number, bytes = 1): ToxicSpec => ({
  name: 'limit',
  stream: 'downstream',
  toxicity,
  attributes: { type: 'limit_data', bytes },
});

/** for n sequential connections: was the echo of 'ping' cut by a 1-byte limit? */
async function cuts(proxy: TcpProxy, n: number): Promise<boolean[]> {
  const out: boolean[] = [];
  for (let i = 0; i < n; i++) {
    const client = await dial(proxy.port);
    let got = 0;
    client.on('data', (c: Buffer) => (got += c.length));
    const closed = ending(client);
    client.write('ping');
    await until(() => got >= 4 || client.destroyed, 10_000);
    out.push(got < 4);
    client.destroy();
    await closed;
  }
  return out;
}

describe('TCP proxy toxics', () => {
  it('toxicity 0 picks no connection, 1 every one; a seed picks the same connections and another seed others', async () => {
    const echo = await startEcho();
    const a = await proxyTo(echo, 7);
    a.setToxic(limit(0));
    expect((await cuts(a, 30)).some(Boolean)).toBe(false);
    a.setToxic(limit(1));
    expect((await cuts(a, 10)).every(Boolean)).toBe(true);

    const run = async (seed: number) => {
      const p = await proxyTo(echo, seed);
      p.setToxic(limit(0.5));
      return cuts(p, 60);
    };
    const first = await run(11);
    expect(await run(11)).toEqual(first);
    expect(await run(12)).not.toEqual(first);
  });

  it('an upstream toxic adds to an arena fault in that direction only', async () => {
    const recorder = await startRecorder();
    const proxy = await proxyTo(recorder.port);
    const client = await dial(proxy.port);
    await until(() => recorder.conns.length === 1);
    const peer = recorder.conns[0]!.socket;
    proxy.applyFault({ id: 'slow', type: 'latency', params: { latency_ms: 100 } });
    proxy.setToxic({
      name: 'up',
      stream: 'upstream',
      toxicity: 1,
      attributes: { type: 'latency', latency: 200, jitter: 0 },
    });
    let began = performance.now();
    const up = readBytes(peer, 1);
    client.write('u');
    await up;
    expect(performance.now() - began).toBeGreaterThanOrEqual(290);
    began = performance.now();
    const down = readBytes(client, 1);
    peer.write('d');
    await down;
    const downMs = performance.now() - began;
    expect(downMs).toBeGreaterThanOrEqual(95);
    expect(downMs).toBeLessThan(290);
  });

  it('an update keeps what a limit already let through, as Toxiproxy keeps its state', async () => {
    const echo = await startEcho();
    const proxy = await proxyTo(echo);
    proxy.setToxic(limit(1, 6));
    const client = await dial(proxy.port);
    client.write('abcd');
    expect((await readBytes(client, 4)).toString()).toBe('abcd');
    // raised to 8: 4 of them are spent, so 4 more get through and then the connection closes
    proxy.setToxic(limit(1, 8));
    let rest = '';
    client.on('data', (c: Buffer) => (rest += c.toString()));
    const closed = ending(client);
    client.write('efghijkl');
    expect(await closed).toBe('closed');
    expect(rest).toBe('efgh');
  });

  it('refuses bad attributes naming the field, and a slicer without a size', () => {
    expect(() => parseToxicAttributes('latency', { latency: -1 })).toThrow(ToxicAttributeError);
    expect(() => parseToxicAttributes('latency', { latency: 1.5 })).toThrow('attributes.latency');
    expect(() => parseToxicAttributes('bandwidth', { speed: 1 })).toThrow('attributes.speed: unknown for bandwidth');
    expect(() => parseToxicAttributes('slicer', {})).toThrow('attributes.average_size');
    expect(parseToxicAttributes('latency', { jitter: 5 }, { type: 'latency', latency: 100, jitter: 0 })).toEqual({
      type: 'latency',
      latency: 100,
      jitter: 5,
    });
  });
});
