import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { llmProbe, PROBE_CLIENT, probeRequest } from '../../../../src/targets/process/llm-probe.js';

interface Seen {
  method?: string;
  path?: string;
  headers: http.IncomingHttpHeaders;
  body: Record<string, unknown>;
}

let server: http.Server | undefined;

afterEach(async () => {
  await new Promise((r) => (server ? server.close(r) : r(undefined)));
  server = undefined;
});

/** a stand-in API answering every call with `status`; records what it was sent */
async function api(status: number, seen: Seen[]): Promise<number> {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      seen.push({
        method: req.method,
        path: req.url,
        headers: req.headers,
        body: JSON.parse(body) as Record<string, unknown>,
      });
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(status < 300 ? '{"id":"x"}' : '{"error":{"code":"rate_limit_exceeded"}}');
    });
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  return (server.address() as AddressInfo).port;
}

describe('the LLM recovery probe', () => {
  it('OpenAI: one-token chat completion, named arena-probe, with the key when given; 2xx passes', async () => {
    const seen: Seen[] = [];
    const port = await api(200, seen);
    expect(await llmProbe({ port, api: 'openai', apiKey: 'sk-test', timeoutMs: 1000 })).toBeUndefined();
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({
      method: 'POST',
      path: '/v1/chat/completions',
      body: { model: 'gpt-4o-mini', max_tokens: 1 },
    });
    expect(seen[0]!.headers['x-arena-client']).toBe(PROBE_CLIENT);
    expect(seen[0]!.headers.authorization).toBe('Bearer sk-test');
  });

  it('Anthropic: /v1/messages with anthropic-version and x-api-key, the configured model', async () => {
    const seen: Seen[] = [];
    const port = await api(200, seen);
    expect(await llmProbe({ port, api: 'anthropic', model: 'claude-x', apiKey: 'k', timeoutMs: 1000 })).toBeUndefined();
    expect(seen[0]).toMatchObject({ path: '/v1/messages', body: { model: 'claude-x', max_tokens: 1 } });
    expect(seen[0]!.headers['anthropic-version']).toBe('2023-06-01');
    expect(seen[0]!.headers['x-api-key']).toBe('k');
    expect(seen[0]!.headers.authorization).toBeUndefined();
  });

  it('a non-2xx answer or no answer fails, saying what came back', async () => {
    const port = await api(429, []);
    expect(await llmProbe({ port, api: 'openai', timeoutMs: 1000 })).toMatch(
      /^LLM probe POST http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions answered 429: \{"error":\{"code":"rate_limit_exceeded"\}\}$/,
    );
    await new Promise((r) => server!.close(r));
    server = undefined;
    expect(await llmProbe({ port, api: 'openai', timeoutMs: 1000 })).toMatch(/connection refused/);
  });

  it('asks the smallest call of the endpoint it is given; a fixed body is sent as is, with the model when it has none', () => {
    expect(probeRequest({ api: 'openai', path: '/v1/responses', model: 'm' })).toEqual({
      path: '/v1/responses',
      body: { model: 'm', input: 'ping', max_output_tokens: 16 },
    });
    expect(probeRequest({ api: 'openai', path: '/openai/v1/completions' }).body).toEqual({
      model: 'gpt-4o-mini',
      prompt: 'ping',
      max_tokens: 1,
    });
    expect(probeRequest({ api: 'openai', path: '/v1/embeddings', model: 'e' }).body).toEqual({
      model: 'e',
      input: 'ping',
    });
    expect(probeRequest({ api: 'openai', path: '/gw/v1/chat/completions', model: 'm' }).body).toMatchObject({
      model: 'm',
      max_tokens: 1,
    });
    expect(probeRequest({ api: 'openai', model: 'm', body: { input: 'x' } })).toEqual({
      path: '/v1/chat/completions',
      body: { model: 'm', input: 'x' },
    });
    expect(probeRequest({ api: 'anthropic', model: 'm', body: { model: 'mine' } }).body).toEqual({ model: 'mine' });
  });

  it('a 2xx answer longer than the probe reads still passes', async () => {
    server = http.createServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ id: 'r', output: 'x'.repeat(20_000) }));
    });
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    expect(await llmProbe({ port, api: 'openai', path: '/v1/responses', timeoutMs: 1000 })).toBeUndefined();
  });
});
