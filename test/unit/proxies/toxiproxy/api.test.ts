/**
 * The Toxiproxy-compatible API in process: populate's partial answer, listen changes, concurrent
 * requests, and the refusals that differ from Toxiproxy on purpose (unknown fields, changing a toxic's type).
 */
import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startToxiproxyServer, type ToxiproxyServer } from '../../../../src/proxies/toxiproxy/server.js';
import { closeAll, dial, dialOutcome, ending, roundTrip, startEcho } from '../../../helpers/tcp.js';

let api: ToxiproxyServer | undefined;
let blocker: Server | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
  await new Promise<void>((done) => (blocker ? blocker.close(() => done()) : done()));
  blocker = undefined;
  await closeAll();
});

async function start() {
  api = await startToxiproxyServer({ port: 0, seed: 3 });
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${api!.url}${path}`, {
      method,
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, json: text ? JSON.parse(text) : undefined, allow: res.headers.get('allow') };
  };
  return call;
}

const portOf = (listen: string) => Number(listen.slice(listen.lastIndexOf(':') + 1));

describe('Toxiproxy API', () => {
  it("populate stops at the first failure and answers the error's status with the proxies done before it", async () => {
    const echo = await startEcho();
    const call = await start();
    blocker = createServer();
    await new Promise<void>((r) => blocker!.listen(0, '127.0.0.1', r));
    const taken = (blocker.address() as { port: number }).port;
    const res = await call('POST', '/populate', [
      { name: 'one', listen: '127.0.0.1:0', upstream: `127.0.0.1:${echo}` },
      { name: 'two', listen: `127.0.0.1:${taken}`, upstream: `127.0.0.1:${echo}` },
      { name: 'three', listen: '127.0.0.1:0', upstream: `127.0.0.1:${echo}` },
    ]);
    // api.go Populate: the ApiError's fields, then "proxies"
    expect(res.status).toBe(500);
    expect(res.json.error).toBe(`listen tcp 127.0.0.1:${taken}: bind: address already in use`);
    expect(res.json.proxies.map((p: { name: string }) => p.name)).toEqual(['one']);
    expect(Object.keys((await call('GET', '/proxies')).json)).toEqual(['one']);

    // proxy_collection.go PopulateJson checks every entry before creating any
    const missing = await call('POST', '/populate', [{ name: 'x', upstream: 'a:1' }, { name: 'y' }]);
    expect([missing.status, missing.json.error]).toEqual([400, 'missing required field: upstream at proxy 2']);
    expect(Object.keys((await call('GET', '/proxies')).json)).toEqual(['one']);
  });

  it('a new listen address restarts the proxy there: the old port refuses, its connections close', async () => {
    const echo = await startEcho();
    const call = await start();
    const created = await call('POST', '/proxies', { name: 'p', listen: '127.0.0.1:0', upstream: `127.0.0.1:${echo}` });
    const oldPort = portOf(created.json.listen);
    const client = await dial(oldPort);
    await roundTrip(client);
    const closed = ending(client);
    const moved = await call('POST', '/proxies/p', { listen: '127.0.0.1:0' });
    expect(moved.status).toBe(200);
    expect(moved.json.enabled).toBe(true);
    expect(await closed).toBe('closed');
    expect(await dialOutcome(oldPort)).toBe('ECONNREFUSED');
    await roundTrip(await dial(portOf(moved.json.listen)));
  });

  it('serialises concurrent changes: two creates of one name give one proxy and a 409', async () => {
    const echo = await startEcho();
    await start();
    const body = { name: 'same', listen: '127.0.0.1:0', upstream: `127.0.0.1:${echo}` };
    const outcomes = await Promise.allSettled([api!.collection.create(body), api!.collection.create(body)]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected']);
    expect((outcomes[1] as PromiseRejectedResult).reason.status).toBe(409);
  });

  it('refuses unknown fields and a change of a toxic type or stream, naming the field; 404 and 405 as JSON', async () => {
    const echo = await startEcho();
    const call = await start();
    const extra = await call('POST', '/proxies', { name: 'p', upstream: `127.0.0.1:${echo}`, lisen: '127.0.0.1:0' });
    expect([extra.status, extra.json.error]).toEqual([
      400,
      'bad request body: unknown field "lisen" (expected name, listen, upstream, enabled, toxics)',
    ]);
    expect((await call('GET', '/proxies')).json).toEqual({});
    // Toxiproxy's Go client sends the proxy's toxics back on save: accepted and ignored
    expect((await call('POST', '/proxies', { name: 'p', upstream: `127.0.0.1:${echo}`, toxics: [] })).status).toBe(201);
    await call('POST', '/proxies/p/toxics', { type: 'latency', attributes: { latency: 5 } });
    const retyped = await call('POST', '/proxies/p/toxics/latency_downstream', { type: 'bandwidth' });
    expect(retyped.status).toBe(400);
    expect(retyped.json.error).toContain("type: a toxic's type cannot change");
    const toxicity = await call('POST', '/proxies/p/toxics/latency_downstream', { toxicity: 2 });
    expect([toxicity.status, toxicity.json.error]).toEqual([
      400,
      'bad request body: toxicity: expected a number from 0 to 1',
    ]);
    expect((await call('GET', '/proxies/p/toxics/latency_downstream')).json.toxicity).toBe(1);

    const none = await call('GET', '/nowhere');
    expect([none.status, none.json.status]).toEqual([404, 404]);
    const wrong = await call('DELETE', '/proxies');
    expect([wrong.status, wrong.allow]).toEqual([405, 'GET, POST']);
    const empty = await call('POST', '/proxies/p/toxics', '');
    expect([empty.status, empty.json.error]).toEqual([400, 'bad request body: EOF']);
  });
});
