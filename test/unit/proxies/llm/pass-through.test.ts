/**
 * With no fault active the proxy is invisible: status, headers and bytes as
 * the upstream sent them, request headers as the client sent them, and a
 * stream's events reach the client as they are produced, not at the end.
 */
import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { startLlmProxy, type LlmProxy } from '../../../../src/proxies/llm/index.js';
import { startStandIn, type StandIn } from '../../../helpers/llm-upstream.js';

let upstream: StandIn;
let proxy: LlmProxy;
afterEach(async () => {
  await proxy?.close();
  await upstream?.close();
});

interface Answer {
  status: number;
  statusMessage: string;
  rawHeaders: string[];
  body: Buffer;
}

function call(
  base: string,
  path: string,
  body: string,
  headers: Record<string, string> = {},
  onChunk?: (chunk: Buffer) => void,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${base}${path}`,
      { method: 'POST', headers: { 'content-type': 'application/json', ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => {
          chunks.push(c);
          onChunk?.(c);
        });
        res.on('end', () =>
          resolve({
            status: res.statusCode!,
            statusMessage: res.statusMessage!,
            rawHeaders: res.rawHeaders,
            body: Buffer.concat(chunks),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** headers that differ per connection or per moment, not per answer */
const stable = (raw: string[]) => {
  const out: string[] = [];
  for (let i = 0; i < raw.length; i += 2)
    if (!/^(date|connection|keep-alive|transfer-encoding)$/i.test(raw[i]!)) out.push(raw[i]!, raw[i + 1]!);
  return out;
};

describe('LLM proxy pass-through', () => {
  it('answers byte for byte what the upstream answers, headers in their case and order', async () => {
    upstream = await startStandIn();
    proxy = await startLlmProxy({ listen: 0, upstream: upstream.url });
    const body = JSON.stringify({ model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }] });
    for (const streamed of [false, true]) {
      const payload = streamed ? body.replace('{', '{"stream":true,') : body;
      const direct = await call(upstream.url, '/v1/chat/completions', payload);
      const proxied = await call(proxy.url, '/v1/chat/completions', payload);
      expect(proxied.status).toBe(direct.status);
      expect(proxied.statusMessage).toBe(direct.statusMessage);
      expect(stable(proxied.rawHeaders)).toEqual(stable(direct.rawHeaders));
      expect(proxied.body.equals(direct.body)).toBe(true);
    }
    expect(proxy.stats()).toMatchObject({ requests: 2, passed: 2, errors_injected: {} });
  });

  it("forwards the request's method, path, query, body and headers (Host set to the upstream)", async () => {
    upstream = await startStandIn();
    proxy = await startLlmProxy({ listen: 0, upstream: upstream.url });
    const body = JSON.stringify({ model: 'claude-test', max_tokens: 5, messages: [] });
    await call(proxy.url, '/v1/messages?beta=true', body, {
      'X-Api-Key': 'sk-ant',
      'anthropic-version': '2023-06-01',
      'X-Custom': 'kept',
    });
    const seen = upstream.requests[0]!;
    expect([seen.method, seen.path, seen.body]).toEqual(['POST', '/v1/messages?beta=true', body]);
    const headers = Object.fromEntries(seen.rawHeaders.flatMap((v, i, a) => (i % 2 === 0 ? [[v, a[i + 1]]] : [])));
    expect(headers).toMatchObject({
      'X-Api-Key': 'sk-ant',
      'anthropic-version': '2023-06-01',
      'X-Custom': 'kept',
      Host: `127.0.0.1:${upstream.port}`,
    });
  });

  it("prefixes the upstream URL's path", async () => {
    upstream = await startStandIn();
    proxy = await startLlmProxy({ listen: 0, upstream: `${upstream.url}/gateway/` });
    await call(proxy.url, '/v1/chat/completions', '{"model":"m"}');
    expect(upstream.requests[0]!.path).toBe('/gateway/v1/chat/completions');
  });

  it('streams: the first event reaches the client while the upstream is still holding the rest', async () => {
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    let firstEventSeen!: () => void;
    const sawFirst = new Promise<void>((r) => (firstEventSeen = r));
    upstream = await startStandIn({ gate: () => gate });
    proxy = await startLlmProxy({ listen: 0, upstream: upstream.url });
    const received: string[] = [];
    const answer = call(
      proxy.url,
      '/v1/messages',
      JSON.stringify({ model: 'c', max_tokens: 5, stream: true, messages: [] }),
      {},
      (c) => {
        received.push(c.toString());
        firstEventSeen();
      },
    );
    // the upstream has sent one event and waits: only a proxy that does not buffer lets it through
    await sawFirst;
    expect(received.join('')).toMatch(/^event: message_start\n/);
    expect(received.join('')).not.toMatch(/message_stop/);
    open();
    const done = await answer;
    expect(done.body.toString()).toMatch(/event: message_stop\n/);
  });

  it('passes an upstream error through untouched and watches whether its retry-after is honoured', async () => {
    // an upstream that rate-limits on its own: the proxy adds nothing, but measures the client's wait
    const { createServer } = await import('node:http');
    let calls = 0;
    const limiter = createServer((req, res) => {
      req.resume();
      calls++;
      res.writeHead(429, { 'retry-after': '0.5', 'content-type': 'application/json' });
      res.end('{"error":{"message":"slow down","type":"requests","param":null,"code":"rate_limit_exceeded"}}');
    });
    await new Promise<void>((r) => limiter.listen(0, '127.0.0.1', r));
    const port = (limiter.address() as { port: number }).port;
    proxy = await startLlmProxy({ listen: 0, upstream: `http://127.0.0.1:${port}` });
    try {
      const first = await call(proxy.url, '/v1/chat/completions', '{}', { 'x-arena-client': 'agent-1' });
      expect(first.status).toBe(429);
      expect(first.body.toString()).toContain('slow down');
      await call(proxy.url, '/v1/chat/completions', '{}', { 'x-arena-client': 'agent-1' });
      await new Promise((r) => setTimeout(r, 520));
      await call(proxy.url, '/v1/chat/completions', '{}', { 'x-arena-client': 'agent-1' });
      expect(calls).toBe(3);
      const [agent] = proxy.stats().clients;
      expect(agent).toMatchObject({
        client: 'agent-1',
        requests: 3,
        retries: 2,
        retry_after: { sent: 3, honoured: 1, early: 1 },
        retry_after_honoured: false,
      });
    } finally {
      await new Promise<void>((r) => {
        limiter.close(() => r());
        limiter.closeAllConnections();
      });
    }
  });

  it('a fault acts on a keep-alive connection opened before it, and stops acting on it after', async () => {
    upstream = await startStandIn();
    proxy = await startLlmProxy({ listen: 0, upstream: upstream.url });
    const { Agent } = await import('node:http');
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const sockets = new Set<unknown>();
    const send = () =>
      new Promise<number>((resolve, reject) => {
        const req = request(`${proxy.url}/v1/chat/completions`, { method: 'POST', agent }, (res) => {
          sockets.add(res.socket);
          res.resume();
          res.on('end', () => resolve(res.statusCode!));
        });
        req.on('error', reject);
        req.end('{"model":"m"}');
      });
    try {
      expect(await send()).toBe(200);
      const f = await proxy.applyFault({
        id: 'k',
        type: 'llm_failure',
        params: { error_type: 'overloaded' },
        lease_ms: 60_000,
      });
      expect(await send()).toBe(503);
      await f.revert!();
      expect(await send()).toBe(200);
      expect(sockets.size).toBe(1);
    } finally {
      agent.destroy();
    }
  });

  it('a port in use is a usage error naming the port', async () => {
    upstream = await startStandIn();
    proxy = await startLlmProxy({ listen: 0, upstream: upstream.url });
    await expect(startLlmProxy({ listen: proxy.port, upstream: upstream.url })).rejects.toMatchObject({
      exitCode: 2,
      code: 'port_in_use',
      message: `port ${proxy.port} on 127.0.0.1 is already in use`,
    });
  });

  it('refuses an upstream that is not an http(s) URL', async () => {
    await expect(startLlmProxy({ listen: 0, upstream: 'ftp://x' })).rejects.toMatchObject({
      exitCode: 2,
      message: expect.stringMatching(/--upstream: ftp:\/\/x\/? must be an http/),
    });
    await expect(startLlmProxy({ listen: 0, upstream: 'not a url' })).rejects.toMatchObject({
      exitCode: 2,
      message: expect.stringMatching(/is not a URL/),
    });
  });
});
