/**
 * Bounds a caller cannot push a proxy past (issue 39): active faults on a
 * control port, bytes the LLM proxy holds for requests it keeps waiting,
 * and a 413 the client actually reads instead of a reset.
 */
import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createFaultRegistry, MAX_ACTIVE_FAULTS } from '../../../src/protocol/fault-registry.js';
import { startLlmControl, startLlmProxy, type LlmControl, type LlmProxy } from '../../../src/proxies/llm/index.js';
import { startTcpFaultProxy, type TcpFaultProxy } from '../../../src/proxies/tcp/control.js';
import { startStandIn, type StandIn } from '../../helpers/llm-upstream.js';

let upstream: StandIn | undefined;
let proxy: LlmProxy | undefined;
let control: LlmControl | undefined;
let tcp: TcpFaultProxy | undefined;
afterEach(async () => {
  await control?.close();
  await proxy?.close();
  await upstream?.close();
  await tcp?.close();
  upstream = proxy = control = tcp = undefined;
});

const waitFor = async (cond: () => boolean, what: string) => {
  const until = Date.now() + 20_000;
  while (!cond()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe('a control port holds at most MAX_ACTIVE_FAULTS faults', () => {
  it('the next one is a 409 naming the cap, a repeated id is still answered, and a revert makes room', async () => {
    tcp = await startTcpFaultProxy({
      listen: { host: '127.0.0.1', port: 0 },
      upstream: { host: '127.0.0.1', port: 9 },
      control: { port: 0 },
    });
    const url = `${tcp.control!.url}/v1/faults`;
    const add = (id: string) =>
      fetch(url, {
        method: 'POST',
        body: JSON.stringify({ id, type: 'latency', params: { latency_ms: 1 }, lease_ms: 600_000 }),
      });
    for (let i = 0; i < MAX_ACTIVE_FAULTS; i += 100)
      await Promise.all(Array.from({ length: 100 }, (_, j) => add(`f${i + j}`)));
    expect(tcp.registry.list()).toHaveLength(MAX_ACTIVE_FAULTS);
    const over = await add('one-too-many');
    expect(over.status).toBe(409);
    expect(await over.json()).toMatchObject({ code: 'too_many_faults', error: expect.stringContaining('1000') });
    expect(tcp.registry.list()).toHaveLength(MAX_ACTIVE_FAULTS);
    expect((await add('f7')).status).toBe(200);
    expect((await fetch(`${url}/f7`, { method: 'DELETE' })).status).toBe(200);
    expect((await add('one-too-many')).status).toBe(201);
  }, 60_000);

  it('a burst of concurrent adds cannot slip past it', async () => {
    const registry = createFaultRegistry({
      maxActive: 3,
      apply: async () => {
        await new Promise((r) => setTimeout(r, 5));
        return { revert: () => {} };
      },
    });
    const outcomes = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) => registry.add({ id: `b${i}`, type: 'x', params: {}, lease_ms: 60_000 })),
    );
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(3);
    expect(registry.list()).toHaveLength(3);
    await registry.revertAll();
  });
});

describe('the LLM proxy bounds what it reads ahead for held requests', () => {
  it('held requests past the budget stay in their sockets; each still reaches the upstream whole', async () => {
    upstream = await startStandIn();
    proxy = await startLlmProxy({ listen: 0, upstream: upstream.url, maxBufferedBytes: 1024 * 1024 });
    control = await startLlmControl({ proxy, listen: 0 });
    await control.registry.add({
      id: 'hold',
      type: 'llm_failure',
      params: { error_type: 'timeout' },
      lease_ms: 600_000,
    });
    const big = JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'x'.repeat(2 * 1024 * 1024) }] });
    const { port } = new URL(proxy.url);
    const answers = Array.from(
      { length: 6 },
      () =>
        new Promise<number>((resolve, reject) => {
          const r = request(
            { host: '127.0.0.1', port: Number(port), method: 'POST', path: '/v1/chat/completions' },
            (res) => {
              res.resume();
              res.on('end', () => resolve(res.statusCode ?? 0));
            },
          );
          r.on('error', reject);
          r.end(big);
        }),
    );
    await waitFor(() => proxy!.stats().held === 6, 'six held requests');
    // about one read over the budget per request (a loaded machine's socket reads run larger than
    // 64 KiB), never the 6 × 2 MiB that were sent
    await new Promise((r) => setTimeout(r, 200));
    expect(proxy.stats().buffered_bytes).toBeLessThan(4 * 1024 * 1024);
    await control.registry.remove('hold');
    expect(await Promise.all(answers)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(upstream.requests.map((r) => r.body.length)).toEqual(Array(6).fill(big.length));
    await waitFor(() => proxy!.stats().buffered_bytes === 0, 'the budget to be given back');
  }, 60_000);
});
