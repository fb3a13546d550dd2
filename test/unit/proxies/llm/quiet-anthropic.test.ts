/**
 * Quiet faults (DESIGN §13.1) as the official `@anthropic-ai/sdk` client sees them through the proxy
 * (`--api auto` picks Anthropic's wire from /v1/messages), streamed and not.
 */
import Anthropic from '@anthropic-ai/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { startLlmProxy, type LlmProxy } from '../../../../src/proxies/llm/index.js';
import { createRandom } from '../../../../src/shared/random.js';
import { startStandIn, type StandIn } from '../../../helpers/llm-upstream.js';

let upstream: StandIn;
let proxy: LlmProxy;
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

async function setup() {
  upstream = await startStandIn({ tokens: 5 });
  proxy = await startLlmProxy({ listen: 0, upstream: upstream.url, random: createRandom(3) });
  cleanups.push(
    () => upstream.close(),
    () => proxy.close(),
  );
}

const client = (maxRetries = 0) =>
  new Anthropic({ apiKey: 'sk-ant-test', baseURL: proxy.url, maxRetries, timeout: 20_000 });
let nextId = 0;
const fault = (params: Record<string, unknown>) =>
  proxy.applyFault({ id: `a${++nextId}`, type: 'llm_failure', params, lease_ms: 60_000 });

const TOOLS = [
  {
    name: 'get_weather',
    input_schema: {
      type: 'object' as const,
      properties: { city: { type: 'string' }, days: { type: 'number' } },
      required: ['city', 'days'],
    },
  },
];
const base = { model: 'claude-test', max_tokens: 64, messages: [{ role: 'user' as const, content: 'hi' }] };
const ask = (c: Anthropic, extra: Record<string, unknown> = {}) =>
  c.messages.create({ ...base, ...extra } as never) as Promise<Anthropic.Message>;
const askStream = (c: Anthropic, extra: Record<string, unknown> = {}) =>
  c.messages.stream({ ...base, ...extra } as never).finalMessage();
const text = (m: Anthropic.Message) => m.content.map((b) => (b.type === 'text' ? b.text : '')).join('');

describe('quiet LLM faults with the official Anthropic client', () => {
  it("truncate: the text cut to keep, stop_reason 'max_tokens', streamed and not", async () => {
    await setup();
    await fault({ error_type: 'truncate', keep: 0.4 });
    const cut = 'Hello from the stand-in'.slice(0, Math.floor(23 * 0.4));
    const a = await ask(client());
    expect(text(a)).toBe(cut);
    expect(a.stop_reason).toBe('max_tokens');
    const s = await askStream(client());
    expect(text(s)).toBe(cut);
    expect(s.stop_reason).toBe('max_tokens');
  });

  it("empty gives content [], refusal gives stop_reason 'refusal'", async () => {
    await setup();
    const empty = await fault({ error_type: 'empty' });
    expect((await ask(client())).content).toEqual([]);
    expect((await askStream(client())).content).toEqual([]);
    await empty.revert!();
    await fault({ error_type: 'refusal' });
    expect((await ask(client())).stop_reason).toBe('refusal');
    expect((await askStream(client())).stop_reason).toBe('refusal');
  });

  it("malformed_tool_args: tool_use.input lacks a field the request's tool lists as required", async () => {
    await setup();
    await fault({ error_type: 'malformed_tool_args' });
    for (const answer of [await ask(client(), { tools: TOOLS }), await askStream(client(), { tools: TOOLS })]) {
      const use = answer.content.find((b) => b.type === 'tool_use') as Anthropic.ToolUseBlock;
      const input = use.input as Record<string, unknown>;
      expect(Object.keys(input)).toHaveLength(1);
      expect(['city', 'days']).toContain(Object.keys(input)[0]);
    }
  });

  it('context_length 400, auth 401, forbidden 403, out of credit 400: typed errors, none retried', async () => {
    await setup();
    const cases: Array<[string, unknown, number, string]> = [
      ['context_length', Anthropic.BadRequestError, 400, 'prompt is too long'],
      ['auth', Anthropic.AuthenticationError, 401, 'invalid x-api-key'],
      ['forbidden', Anthropic.PermissionDeniedError, 403, 'permission'],
      ['insufficient_quota', Anthropic.BadRequestError, 400, 'credit balance is too low'],
    ];
    for (const [type, klass, status, words] of cases) {
      const f = await fault({ error_type: type });
      const before = proxy.stats().requests;
      const err = await ask(client(3)).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(klass as typeof Anthropic.APIError);
      expect(err).toMatchObject({ status });
      expect(String((err as Error).message)).toContain(words);
      expect(proxy.stats().requests - before).toBe(1);
      await f.revert!();
    }
  });

  it('rate_limit_storm on tokens: 429 rate_limit_error with retry-after and the anthropic-ratelimit headers', async () => {
    await setup();
    await fault({ error_type: 'rate_limit_storm', tokens_per_min: 100 });
    await ask(client());
    const err = (await ask(client()).catch((e: unknown) => e)) as InstanceType<typeof Anthropic.APIError>;
    expect(err).toBeInstanceOf(Anthropic.RateLimitError);
    expect(Number(err.headers?.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(err.headers?.get('anthropic-ratelimit-input-tokens-limit')).toBe('100');
    expect(err.headers?.get('anthropic-ratelimit-requests-limit')).toBeNull();
  });
});
