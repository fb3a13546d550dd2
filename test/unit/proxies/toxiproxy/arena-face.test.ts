/**
 * The arena's face of a Toxiproxy proxy (`/arena/proxies/{name}/v1/…`): the Arena Target Protocol's
 * leased fault routes on the very proxy Toxiproxy clients drive. How the two faces combine: latencies
 * add, a partition beats every toxic, a client's reset or disable does not end the arena's fault, and
 * the arena's fault ends by its lease, its DELETE or the proxy's deletion, leaving the toxics.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startToxiproxyServer, type ToxiproxyServer } from '../../../../src/proxies/toxiproxy/server.js';
import { closeAll, dial, dialOutcome, fastest, roundTrip, startEcho, until } from '../../../helpers/tcp.js';

let api: ToxiproxyServer | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
  await closeAll();
});

async function withProxy() {
  const echo = await startEcho();
  api = await startToxiproxyServer({ port: 0, seed: 3 });
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${api!.url}${path}`, {
      method,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, json: text ? JSON.parse(text) : undefined };
  };
  const created = await call('POST', '/proxies', { name: 'db', listen: '127.0.0.1:0', upstream: `127.0.0.1:${echo}` });
  expect(created.status).toBe(201);
  const port = Number(created.json.listen.split(':').pop());
  const fault = (id: string, type: string, params: Record<string, unknown> = {}, lease_ms = 30_000) =>
    call('POST', '/arena/proxies/db/v1/faults', { id, type, target_id: 'a', params, lease_ms });
  const faults = async () => (await call('GET', '/arena/proxies/db/v1/faults')).json.faults as Array<{ id: string }>;
  return { call, port, fault, faults };
}

describe("a Toxiproxy proxy's arena face", () => {
  it("the arena's latency adds to a client's latency toxic; deleting the arena's fault leaves the toxic", async () => {
    const { call, port, fault, faults } = await withProxy();
    await call('POST', '/proxies/db/toxics', { type: 'latency', stream: 'downstream', attributes: { latency: 100 } });
    const socket = await dial(port);
    expect(await fastest(socket)).toBeGreaterThanOrEqual(95);
    const applied = await fault('f1', 'latency', { latency_ms: 150 });
    expect(applied.status).toBe(201);
    expect(applied.json.report).toMatchObject({ type: 'latency', connections_affected: 1 });
    // 150 ms each way from the arena, 100 ms on the answer from the toxic
    expect(await roundTrip(socket)).toBeGreaterThanOrEqual(390);
    expect(await call('DELETE', '/arena/proxies/db/v1/faults/f1')).toMatchObject({
      status: 200,
      json: { id: 'f1', reverted: true },
    });
    expect(await faults()).toEqual([]);
    const after = await fastest(socket);
    expect(after).toBeGreaterThanOrEqual(95);
    expect(after).toBeLessThan(390);
    expect((await call('GET', '/proxies/db/toxics')).json).toHaveLength(1);
  });

  it("a partition beats the toxics, and outlives a client's reset and a disable and enable", async () => {
    const { call, port, fault, faults } = await withProxy();
    await call('POST', '/proxies/db/toxics', { type: 'latency', attributes: { latency: 10 } });
    expect((await fault('p1', 'blackhole')).status).toBe(201);
    expect(await dialOutcome(port)).toBe('ECONNREFUSED');
    // the client's reset removes its toxics and enables the proxy; the arena's fault is the arena's
    expect((await call('POST', '/reset')).status).toBe(204);
    expect((await call('GET', '/proxies/db/toxics')).json).toEqual([]);
    expect((await faults()).map((f) => f.id)).toEqual(['p1']);
    expect(await dialOutcome(port)).toBe('ECONNREFUSED');
    const listen = `127.0.0.1:${port}`;
    await call('POST', '/proxies/db', { enabled: false });
    await call('POST', '/proxies/db', { enabled: true, listen });
    expect(await dialOutcome(port)).toBe('ECONNREFUSED');
    await call('DELETE', '/arena/proxies/db/v1/faults/p1');
    expect(await dialOutcome(port)).toBe('connected');
  });

  it('a fault whose lease is not renewed is reverted by the server; a renewed one stays', async () => {
    const { port, fault, faults, call } = await withProxy();
    await fault('kept', 'latency', { latency_ms: 1 }, 300);
    await fault('dropped', 'blackhole', {}, 300);
    expect(await dialOutcome(port)).toBe('ECONNREFUSED');
    const renew = setInterval(
      () => void call('POST', '/arena/proxies/db/v1/leases', { ids: ['kept'], lease_ms: 300 }),
      80,
    );
    try {
      const ended = { done: false };
      const poll = setInterval(async () => (ended.done = !(await faults()).some((f) => f.id === 'dropped')), 50);
      try {
        await until(() => ended.done, 10_000);
      } finally {
        clearInterval(poll);
      }
      expect(await dialOutcome(port)).toBe('connected');
      expect((await faults()).map((f) => f.id)).toEqual(['kept']);
    } finally {
      clearInterval(renew);
    }
  });

  it('deleting the proxy ends its arena faults; an unknown proxy or a bad fault is refused with a code', async () => {
    const { call, fault } = await withProxy();
    await fault('f1', 'latency', { latency_ms: 5 });
    expect((await call('DELETE', '/proxies/db')).status).toBe(204);
    expect(await call('GET', '/arena/proxies/db/v1/faults')).toEqual({
      status: 404,
      json: { error: 'proxy db not found', code: 'proxy_not_found', status: 404 },
    });
    await call('POST', '/proxies', { name: 'db', listen: '127.0.0.1:0', upstream: '127.0.0.1:1' });
    expect((await call('GET', '/arena/proxies/db/v1/faults')).json).toEqual({ faults: [] });
    const bad = await fault('f2', 'latency', { latency_ms: -1 });
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({ code: 'bad_request', error: expect.stringContaining('params.latency_ms') });
    const unknown = await fault('f3', 'slicer');
    expect(unknown).toMatchObject({ status: 422, json: { code: 'unsupported' } });
    expect((await call('GET', '/arena/proxies/db/v1/faults')).json).toEqual({ faults: [] });
  });
});
