import { afterEach, describe, expect, it } from 'vitest';
import { startTcpFaultProxy, type TcpFaultProxy } from '../../../../src/proxies/tcp/control.js';
import { createRandom } from '../../../../src/shared/random.js';
import { closeAll, dial, dialOutcome, fastest, roundTrip, startEcho, until } from '../../../helpers/tcp.js';

let running: TcpFaultProxy | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
  await closeAll();
});

async function start(token?: string) {
  running = await startTcpFaultProxy({
    listen: { port: 0 },
    upstream: { host: '127.0.0.1', port: await startEcho() },
    control: { port: 0 },
    random: createRandom(5),
    ...(token ? { token } : {}),
  });
  const base = running.control!.url;
  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  return { proxy: running.proxy, call };
}

describe('tcp proxy control port', () => {
  it('POST applies a fault (201), the same id again answers 200 with the same body, GET lists it, DELETE reverts it', async () => {
    const { proxy, call } = await start();
    const client = await dial(proxy.port);
    const request = { id: 'slow-1', type: 'latency', params: { latency_ms: 60 }, lease_ms: 10_000 };
    const first = await call('POST', '/v1/faults', request);
    expect(first.status).toBe(201);
    expect(first.body).toEqual({
      id: 'slow-1',
      report: {
        type: 'latency',
        params: { latency_ms: 60, jitter_ms: 0 },
        connections_open: 1,
        connections_affected: 1,
        new_connections: 'affected',
      },
    });
    const again = await call('POST', '/v1/faults', request);
    expect(again).toEqual({ status: 200, body: first.body });
    expect(proxy.stats().faults_injected).toBe(1);

    expect(await roundTrip(client)).toBeGreaterThanOrEqual(118);
    const listed = await call('GET', '/v1/faults');
    expect(listed.body.faults).toEqual([expect.objectContaining({ id: 'slow-1', type: 'latency' })]);

    expect(await call('DELETE', '/v1/faults/slow-1')).toEqual({ status: 200, body: { id: 'slow-1', reverted: true } });
    expect(await call('DELETE', '/v1/faults/slow-1')).toEqual({ status: 200, body: { id: 'slow-1', reverted: false } });
    expect(await fastest(client)).toBeLessThan(50);
    expect((await call('GET', '/v1/faults')).body.faults).toEqual([]);
  });

  it('GET /v1/stats counts connections, bytes each way and faults injected', async () => {
    const { proxy, call } = await start();
    const client = await dial(proxy.port);
    await roundTrip(client, Buffer.from('0123456789'));
    await call('POST', '/v1/faults', { id: 'r', type: 'reset', params: { probability: 0 } });
    const stats = await call('GET', '/v1/stats');
    expect(stats.status).toBe(200);
    expect(stats.body).toEqual({
      connections_total: 1,
      connections_open: 1,
      connections_reset: 0,
      connections_timed_out: 0,
      bytes_client_to_upstream: 10,
      bytes_upstream_to_client: 10,
      faults_injected: 1,
      faults_active: 1,
      is_accepting: true,
    });
  });

  it('a fault whose lease is not renewed is reverted on its own; a renewed one stays', async () => {
    const { proxy, call } = await start();
    await call('POST', '/v1/faults', { id: 'kept', type: 'latency', params: { latency_ms: 1 }, lease_ms: 250 });
    // renewed at once: a fixed 150 ms wait first left too little of the lease on a starved machine
    expect(await call('POST', '/v1/leases', { ids: ['kept', 'ghost'], lease_ms: 5000 })).toEqual({
      status: 200,
      body: { renewed: ['kept'] },
    });
    await call('POST', '/v1/faults', { id: 'bh', type: 'blackhole', params: {}, lease_ms: 250 });
    expect(await dialOutcome(proxy.port)).toBe('ECONNREFUSED');
    // the blackhole's lease runs out: the proxy accepts connections again without anyone asking, and
    // kept's first lease, which began sooner, has run out too
    await until(() => proxy.stats().is_accepting, 2000);
    expect((await call('GET', '/v1/faults')).body.faults).toEqual([expect.objectContaining({ id: 'kept' })]);
    expect(await fastest(await dial(proxy.port))).toBeLessThan(100);
  });

  it('a duration ends the fault', async () => {
    const { proxy, call } = await start();
    await call('POST', '/v1/faults', {
      id: 'short',
      type: 'blackhole',
      params: {},
      duration_ms: 150,
      lease_ms: 60_000,
    });
    expect(proxy.stats().is_accepting).toBe(false);
    await until(() => proxy.stats().is_accepting && proxy.stats().faults_active === 0, 2000);
  });

  it('refuses an unknown type with 422 and bad params with 400 naming the field, applying nothing', async () => {
    const { proxy, call } = await start();
    const unknown = await call('POST', '/v1/faults', { id: 'a', type: 'kill_agent', params: {} });
    expect(unknown).toEqual({
      status: 422,
      body: {
        code: 'unsupported',
        error: 'type: the TCP proxy has no fault "kill_agent" (it takes latency, blackhole, reset, bandwidth, timeout)',
      },
    });
    const bad = await call('POST', '/v1/faults', { id: 'b', type: 'bandwidth', params: { bytes_per_s: -1 } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/^params\.bytes_per_s/);
    const unknownKey = await call('POST', '/v1/faults', { id: 'c', type: 'reset', extra: 1 });
    expect(unknownKey.status).toBe(400);
    expect(unknownKey.body.error).toMatch(/^extra: unknown field/);
    expect((await call('POST', '/v1/faults', '{not json')).status).toBe(400);
    expect(proxy.stats()).toMatchObject({ faults_injected: 0, faults_active: 0 });
    expect((await call('GET', '/v1/faults')).body.faults).toEqual([]);
  });

  it('POST /v1/reset reverts everything at once; close() reverts what is left', async () => {
    const { proxy, call } = await start();
    await call('POST', '/v1/faults', { id: 'a', type: 'latency', params: { latency_ms: 500 } });
    await call('POST', '/v1/faults', { id: 'b', type: 'blackhole', params: {} });
    expect(await call('POST', '/v1/reset')).toEqual({ status: 200, body: { reverted: 2 } });
    expect(proxy.stats()).toMatchObject({ faults_active: 0, is_accepting: true });
    await call('POST', '/v1/faults', { id: 'c', type: 'latency', params: { latency_ms: 500 } });
    await running!.close();
    expect(proxy.stats().faults_active).toBe(0);
    running = undefined;
  });

  it('with a token, the control port answers 401 without it', async () => {
    const { call } = await start('s3cret');
    expect((await call('GET', '/v1/faults')).status).toBe(401);
    expect((await call('GET', '/v1/stats', undefined, { authorization: 'Bearer s3cret' })).status).toBe(200);
  });
});
