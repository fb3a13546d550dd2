/**
 * The LLM proxy's call ledger (DESIGN §14): one CallRecord per request, made
 * with the official `openai` and `@anthropic-ai/sdk` clients against a
 * stand-in upstream, read back in-process and through `GET /v1/calls`.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { createCallLedger } from '../../../../src/protocol/calls.js';
import { startLlmControl, startLlmProxy, type LlmProxy } from '../../../../src/proxies/llm/index.js';
import { startStandIn, type StandIn } from '../../../helpers/llm-upstream.js';

let upstream: StandIn;
let proxy: LlmProxy;
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

async function setup(options: Partial<Parameters<typeof startLlmProxy>[0]> = {}) {
  upstream = await startStandIn();
  proxy = await startLlmProxy({ listen: 0, upstream: upstream.url, api: 'auto', ...options });
  cleanups.push(
    () => upstream.close(),
    () => proxy.close(),
  );
}

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const openai = (headers: Record<string, string> = {}) =>
  new OpenAI({ apiKey: 'sk-test', baseURL: `${proxy.url}/v1`, maxRetries: 0, timeout: 5000, defaultHeaders: headers });
const anthropic = () => new Anthropic({ apiKey: 'sk-ant-test', baseURL: proxy.url, maxRetries: 0, timeout: 5000 });
const messages = [{ role: 'user' as const, content: 'hi' }];

/** the ledger is written when the client's side closes: a beat after the SDK has its answer */
async function records(n: number) {
  for (let i = 0; i < 200; i++) {
    const { records } = proxy.calls.calls();
    if (records.length >= n) return records;
    await new Promise((r) => setTimeout(r, 5));
  }
  return proxy.calls.calls().records;
}

describe('LLM proxy call records', () => {
  it('openai chat completion: attribution headers, model, usage tokens, ok; the agent named', async () => {
    await setup({ agent: 'agent-1' });
    await openai({
      'x-arena-trial': 'sum#3',
      'x-arena-client': 'planner',
      traceparent: `00-${TRACE}-00f067aa0ba902b7-01`,
    }).chat.completions.create({ model: 'gpt-test', messages });
    const [call] = await records(1);
    expect(call).toMatchObject({
      seq: 1,
      kind: 'llm',
      agent: 'agent-1',
      trial: 'sum#3',
      client: 'planner',
      trace_id: TRACE,
      ok: true,
      faulted: false,
      model: 'gpt-test',
      tokens: { input: 5, output: 3 },
    });
    expect(call!.ended_ms).toBeGreaterThanOrEqual(call!.started_ms);
    expect(proxy.stats().tokens).toEqual({ input: 5, output: 3, answers_with_usage: 1, answers_without_usage: 0 });
  });

  it('openai streamed: tokens from the final chunk with include_usage, absent without it (never estimated)', async () => {
    await setup();
    const withUsage = await openai().chat.completions.create({
      model: 'gpt-test',
      messages,
      stream: true,
      stream_options: { include_usage: true },
    });
    for await (const _ of withUsage) {
      // read to the end
    }
    const without = await openai().chat.completions.create({ model: 'gpt-test', messages, stream: true });
    for await (const _ of without) {
      // read to the end
    }
    const [first, second] = await records(2);
    expect(first).toMatchObject({ ok: true, model: 'gpt-test', tokens: { input: 5, output: 3 } });
    expect(second).toMatchObject({ ok: true, model: 'gpt-test' });
    expect(second!.tokens).toBeUndefined();
    expect(proxy.stats().tokens).toMatchObject({ answers_with_usage: 1, answers_without_usage: 1 });
  });

  it('anthropic messages, plain and streamed: input from message_start, output from message_delta', async () => {
    await setup();
    await anthropic().messages.create({ model: 'claude-test', max_tokens: 64, messages });
    const stream = anthropic().messages.stream({ model: 'claude-test', max_tokens: 64, messages });
    await stream.finalMessage();
    const [plain, streamed] = await records(2);
    expect(plain).toMatchObject({ ok: true, faulted: false, model: 'claude-test', tokens: { input: 5, output: 3 } });
    expect(streamed).toMatchObject({ ok: true, faulted: false, model: 'claude-test', tokens: { input: 5, output: 3 } });
  });

  it('an injected error is a faulted call that did not succeed, with the model the request named', async () => {
    await setup();
    await proxy.applyFault({
      id: 'f1',
      type: 'llm_failure',
      params: { error_type: 'server_error', first_n: 1, match: 'gpt-*' },
      lease_ms: 60_000,
    });
    await expect(openai().chat.completions.create({ model: 'gpt-test', messages })).rejects.toThrow();
    await openai().chat.completions.create({ model: 'gpt-test', messages });
    const [failed, passed] = await records(2);
    expect(failed).toMatchObject({ ok: false, faulted: true, model: 'gpt-test' });
    expect(failed!.tokens).toBeUndefined();
    expect(passed).toMatchObject({ ok: true, faulted: false, tokens: { input: 5, output: 3 } });
  });

  it('a fault with no match reads no body: an unanswered call still has the model its body named', async () => {
    await setup();
    await proxy.applyFault({
      id: 'f2',
      type: 'llm_failure',
      params: { error_type: 'rate_limit', first_n: 1 },
      lease_ms: 60_000,
    });
    await expect(openai().chat.completions.create({ model: 'gpt-other', messages })).rejects.toThrow();
    const [limited] = await records(1);
    expect(limited).toMatchObject({ ok: false, faulted: true, model: 'gpt-other' });
  });

  it('a stream broken off by stream_error is faulted and not ok; a truncated answer is faulted and ok', async () => {
    await setup();
    await proxy.applyFault({
      id: 's1',
      type: 'llm_failure',
      params: { error_type: 'stream_error', first_n: 1, after_events: 1 },
      lease_ms: 60_000,
    });
    const stream = anthropic().messages.stream({ model: 'claude-test', max_tokens: 64, messages });
    await expect(stream.finalMessage()).rejects.toThrow();
    await proxy.applyFault({
      id: 't1',
      type: 'llm_failure',
      params: { error_type: 'truncate', first_n: 1 },
      lease_ms: 60_000,
    });
    await anthropic().messages.create({ model: 'claude-test', max_tokens: 64, messages });
    const [cut, truncated] = await records(2);
    expect(cut).toMatchObject({ ok: false, faulted: true, model: 'claude-test' });
    // the upstream's own usage: what the call cost, whatever the fault did to the text
    expect(truncated).toMatchObject({ ok: true, faulted: true, tokens: { input: 5, output: 3 } });
  });

  it('records into the ledger it is given; GET /v1/calls?since=N pages it, behind the control token', async () => {
    const ledger = createCallLedger();
    await setup({ ledger, agent: 'a' });
    const control = await startLlmControl({ proxy, listen: 0, token: 'tok' });
    cleanups.push(() => control.close());
    await openai().chat.completions.create({ model: 'gpt-test', messages });
    await openai().chat.completions.create({ model: 'gpt-test', messages });
    await records(2);
    expect(ledger.calls().records).toHaveLength(2);
    const base = `http://127.0.0.1:${control.server!.port}/v1/calls`;
    const auth = { authorization: 'Bearer tok' };
    expect((await fetch(base)).status).toBe(401);
    const all = (await (await fetch(base, { headers: auth })).json()) as { records: unknown[]; next: number };
    expect(all).toMatchObject({ next: 2, dropped: 0 });
    expect(all.records).toHaveLength(2);
    const later = (await (await fetch(`${base}?since=1`, { headers: auth })).json()) as { records: { seq: number }[] };
    expect(later.records.map((r) => r.seq)).toEqual([2]);
    const bad = await fetch(`${base}?since=-1`, { headers: auth });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain('since');
  });

  it('openai Responses API, plain and streamed: input_tokens / output_tokens, from response.completed when streamed', async () => {
    const response = (status: string, usage: unknown) => ({
      id: 'resp_1',
      object: 'response',
      created_at: 1_700_000_000,
      model: 'gpt-resp',
      status,
      output: [
        {
          type: 'message',
          id: 'msg_1',
          role: 'assistant',
          status: 'completed',
          content: [{ type: 'output_text', text: 'hi', annotations: [] }],
        },
      ],
      usage,
    });
    const usage = { input_tokens: 11, output_tokens: 2, total_tokens: 13 };
    const server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (d) => (body += d));
      req.on('end', () => {
        if (!(JSON.parse(body) as { stream?: boolean }).stream) {
          res.writeHead(200, { 'content-type': 'application/json' });
          return res.end(JSON.stringify(response('completed', usage)));
        }
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        const ev = (type: string, data: Record<string, unknown>, n: number) =>
          `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: n, ...data })}\n\n`;
        res.end(
          ev('response.created', { response: response('in_progress', null) }, 0) +
            ev('response.output_text.delta', { item_id: 'msg_1', output_index: 0, content_index: 0, delta: 'hi' }, 1) +
            ev('response.completed', { response: response('completed', usage) }, 2),
        );
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    cleanups.push(() => new Promise<void>((r) => server.close(() => r())));
    proxy = await startLlmProxy({
      listen: 0,
      upstream: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      api: 'openai',
    });
    cleanups.push(() => proxy.close());
    const plain = await openai().responses.create({ model: 'gpt-resp', input: 'hi' });
    expect(plain.output_text).toBe('hi');
    const stream = await openai().responses.create({ model: 'gpt-resp', input: 'hi', stream: true });
    const types: string[] = [];
    for await (const event of stream) types.push(event.type);
    expect(types).toContain('response.completed');
    const calls = await records(2);
    expect(calls.map((c) => [c.ok, c.model, c.tokens])).toEqual([
      [true, 'gpt-resp', { input: 11, output: 2 }],
      [true, 'gpt-resp', { input: 11, output: 2 }],
    ]);
  });
});
