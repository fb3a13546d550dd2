/**
 * The official `@anthropic-ai/sdk` client, pointed at the proxy (`--api auto`
 * picks Anthropic's wire format from `/v1/messages`), against a stand-in.
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { startLlmProxy, type LlmProxy } from '../../../../src/proxies/llm/index.js';
import { startStandIn, type StandIn } from '../../../helpers/llm-upstream.js';

let upstream: StandIn;
let proxy: LlmProxy;
afterEach(async () => {
  await proxy?.close();
  await upstream?.close();
});

async function setup() {
  upstream = await startStandIn();
  proxy = await startLlmProxy({ listen: 0, upstream: upstream.url, api: 'auto' });
}

const client = (opts: { maxRetries?: number; timeout?: number } = {}) =>
  new Anthropic({
    apiKey: 'sk-ant-test',
    baseURL: proxy.url,
    maxRetries: opts.maxRetries ?? 0,
    timeout: opts.timeout ?? 5000,
  });

let nextId = 0;
const fault = (params: Record<string, unknown>) =>
  proxy.applyFault({ id: `a${++nextId}`, type: 'llm_failure', params, lease_ms: 60_000 });
const params = { model: 'claude-test', max_tokens: 64, messages: [{ role: 'user' as const, content: 'hi' }] };
const ask = (c: Anthropic) => c.messages.create(params);

describe('LLM proxy with the official Anthropic client', () => {
  it('rate_limit: the SDK waits the retry-after and retries until first_n is used up', async () => {
    await setup();
    await fault({ error_type: 'rate_limit', first_n: 1, retry_after_s: 0.25 });
    const started = performance.now();
    const message = await ask(client({ maxRetries: 1 }));
    expect(performance.now() - started).toBeGreaterThanOrEqual(250);
    expect(message.content).toEqual([{ type: 'text', text: 'Hello from the' }]);
    expect(upstream.requests).toHaveLength(1);
    expect(proxy.stats().clients[0]).toMatchObject({
      retries: 1,
      retry_after: { sent: 1, honoured: 1, early: 0 },
      retry_after_honoured: true,
    });
  });

  it('rate_limit: after max retries, RateLimitError with rate_limit_error, request-id and retry-after', async () => {
    await setup();
    await fault({ error_type: 'rate_limit', retry_after_s: 0.05 });
    const err = (await ask(client({ maxRetries: 2 })).catch((e: unknown) => e)) as InstanceType<
      typeof Anthropic.APIError
    >;
    expect(err).toBeInstanceOf(Anthropic.RateLimitError);
    expect(err.status).toBe(429);
    expect(err.type).toBe('rate_limit_error');
    expect(err.requestID).toMatch(/^req_011C[0-9A-Za-z]{20}$/);
    expect(err.error).toMatchObject({ type: 'error', error: { type: 'rate_limit_error' }, request_id: err.requestID });
    expect(err.headers?.get('retry-after')).toBe('0.05');
    expect(upstream.requests).toHaveLength(0);
    expect(proxy.stats().clients[0]).toMatchObject({ requests: 3, retries: 2, errors_injected: { rate_limit: 3 } });
  });

  it('overloaded is a 529 OverloadedError, server_error a 500 api_error', async () => {
    await setup();
    const f = await fault({ error_type: 'overloaded' });
    const overloaded = (await ask(client()).catch((e: unknown) => e)) as InstanceType<typeof Anthropic.APIError>;
    expect(overloaded).toBeInstanceOf(Anthropic.OverloadedError);
    expect([overloaded.status, overloaded.type, overloaded.apiMessage]).toEqual([
      529,
      'overloaded_error',
      'Overloaded',
    ]);
    await f.revert!();
    await fault({ error_type: 'server_error' });
    const failed = (await ask(client()).catch((e: unknown) => e)) as InstanceType<typeof Anthropic.APIError>;
    expect(failed).toBeInstanceOf(Anthropic.InternalServerError);
    expect([failed.status, failed.type]).toEqual([500, 'api_error']);
  });

  it('overloaded with maxRetries: the SDK retries (x-should-retry: true) and each retry reaches the proxy', async () => {
    await setup();
    await fault({ error_type: 'overloaded', first_n: 2, retry_after_s: 0.05 });
    const message = await ask(client({ maxRetries: 2 }));
    expect(message.stop_reason).toBe('end_turn');
    expect(proxy.stats().clients[0]).toMatchObject({ requests: 3, retries: 2, errors_injected: { overloaded: 2 } });
  });

  it('timeout: APIConnectionTimeoutError once the SDK gives up; nothing reached the upstream', async () => {
    await setup();
    await fault({ error_type: 'timeout' });
    const err = await ask(client({ maxRetries: 0, timeout: 150 })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.APIConnectionTimeoutError);
    expect(upstream.requests).toHaveLength(0);
  });

  it("stream_error: 200, the events before the cut, then event: error overloaded_error ends the SDK's stream with an APIError", async () => {
    await setup();
    await fault({ error_type: 'stream_error', after_events: 3 });
    const stream = await client().messages.create({ ...params, stream: true });
    const types: string[] = [];
    const err = await (async () => {
      for await (const event of stream) types.push(event.type);
    })().catch((e: unknown) => e);
    expect(types).toEqual(['message_start', 'content_block_start', 'content_block_delta']);
    expect(err).toBeInstanceOf(Anthropic.APIError);
    expect((err as InstanceType<typeof Anthropic.APIError>).type).toBe('overloaded_error');
  });

  it('stream_stall: the MessageStream helper with an abort timeout ends with APIUserAbortError instead of hanging', async () => {
    await setup();
    await fault({ error_type: 'stream_stall', after_events: 2 });
    const stream = client().messages.stream(params, { signal: AbortSignal.timeout(250) });
    const err = await stream.finalMessage().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.APIUserAbortError);
    expect(upstream.requests).toHaveLength(1);
  });

  it("a dead upstream is a 502 in Anthropic's error shape", async () => {
    upstream = await startStandIn();
    const dead = upstream.url;
    await upstream.close();
    proxy = await startLlmProxy({ listen: 0, upstream: dead, api: 'anthropic' });
    const err = (await ask(client()).catch((e: unknown) => e)) as InstanceType<typeof Anthropic.APIError>;
    expect(err).toBeInstanceOf(Anthropic.InternalServerError);
    expect([err.status, err.type]).toEqual([502, 'api_error']);
    expect(err.apiMessage).toMatch(/upstream unreachable \(ECONNREFUSED\)/);
  });

  it('--api auto: one proxy answers each SDK in its own format, and match on a path picks one API', async () => {
    await setup();
    await fault({ error_type: 'rate_limit', match: '/v1/messages', retry_after_s: 0 });
    const openai = new OpenAI({ apiKey: 'k', baseURL: `${proxy.url}/v1`, maxRetries: 0 });
    const completion = await openai.chat.completions.create({
      model: 'gpt-test',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(completion.choices[0]!.message.content).toBe('Hello from the');
    await expect(ask(client())).rejects.toBeInstanceOf(Anthropic.RateLimitError);
  });
});
