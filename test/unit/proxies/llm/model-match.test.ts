/**
 * A fault that matches on `model` reads a request only as far as its model: the arena's own probe,
 * a model that comes late in a long body, and a held request whose body was not read to its end all
 * go on as before.
 */
import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { startLlmProxy, type LlmProxy } from '../../../../src/proxies/llm/index.js';
import { startStandIn, type StandIn } from '../../../helpers/llm-upstream.js';

let upstream: StandIn | undefined;
let proxy: LlmProxy | undefined;
afterEach(async () => {
  await proxy?.close();
  await upstream?.close();
  proxy = upstream = undefined;
});

/** a POST whose body is written in two pieces a moment apart, chunked (no content-length) */
function post(
  url: string,
  body: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${url}/v1/chat/completions`,
      { method: 'POST', headers: { 'content-type': 'application/json', ...headers } },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode!, text }));
      },
    );
    req.on('error', reject);
    const half = Math.floor(body.length / 2);
    req.write(body.slice(0, half));
    setTimeout(() => req.end(body.slice(half)), 20);
  });
}

async function withFault(params: Record<string, unknown>, probeClient?: string) {
  upstream = await startStandIn();
  proxy = await startLlmProxy({
    listen: 0,
    upstream: upstream.url,
    api: 'openai',
    ...(probeClient ? { probeClient } : {}),
  });
  return proxy.applyFault({ id: 'f', type: 'llm_failure', params, lease_ms: 60_000 });
}

describe('match on model, read as far as the model', () => {
  it("the arena's recovery probe is answered (and not taken as the clients' traffic)", async () => {
    await withFault({ error_type: 'rate_limit', match: { model: 'gpt-a' } }, 'arena-probe');
    const probe = await post(proxy!.url, JSON.stringify({ model: 'gpt-b', messages: [] }), {
      'x-arena-client': 'arena-probe',
    });
    expect(probe.status).toBe(200);
    expect(proxy!.lastRequest()).toBeUndefined();
    expect((await post(proxy!.url, JSON.stringify({ model: 'gpt-a', messages: [] }))).status).toBe(429);
    expect(proxy!.lastRequest()).toEqual({ path: '/v1/chat/completions', model: 'gpt-a' });
  });

  it('a model after a long conversation, in a later chunk, is still matched', async () => {
    await withFault({ error_type: 'rate_limit', match: { model: 'gpt-a' } });
    const late = (model: string) =>
      JSON.stringify({ messages: [{ role: 'user', content: 'x'.repeat(300_000) }], model });
    expect((await post(proxy!.url, late('gpt-a'))).status).toBe(429);
    expect((await post(proxy!.url, late('gpt-b'))).status).toBe(200);
    expect(upstream!.requests.map((r) => r.body)).toEqual([late('gpt-b')]);
  });

  it('a held request read only to its model goes upstream whole when the fault ends', async () => {
    const applied = await withFault({ error_type: 'timeout', match: { model: 'gpt-a' } });
    const body = JSON.stringify({ model: 'gpt-a', messages: [{ role: 'user', content: 'y'.repeat(200_000) }] });
    const answer = post(proxy!.url, body);
    await new Promise((r) => setTimeout(r, 150));
    expect(upstream!.requests).toEqual([]);
    await applied.revert?.();
    expect((await answer).status).toBe(200);
    expect(upstream!.requests.map((r) => r.body)).toEqual([body]);
  });
});
