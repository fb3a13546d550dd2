/**
 * Quiet faults (DESIGN §13.1) as the official `openai` client sees them through the proxy, in front
 * of a stand-in upstream: streamed and not, what the SDK returns or throws, and what it retries.
 */
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { startLlmProxy, type LlmProxy } from '../../../../src/proxies/llm/index.js';
import { createRandom } from '../../../../src/shared/random.js';
import { startStandIn, TOOL_ARGS, type StandIn } from '../../../helpers/llm-upstream.js';

let upstream: StandIn;
let proxy: LlmProxy;
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

async function setup(seed = 7) {
  upstream = await startStandIn({ tokens: 5 });
  proxy = await startLlmProxy({ listen: 0, upstream: upstream.url, api: 'openai', random: createRandom(seed) });
  cleanups.push(
    () => upstream.close(),
    () => proxy.close(),
  );
}

const client = (maxRetries = 0) =>
  new OpenAI({ apiKey: 'sk-test', baseURL: `${proxy.url}/v1`, maxRetries, timeout: 20_000 });

let nextId = 0;
const fault = (params: Record<string, unknown>) =>
  proxy.applyFault({ id: `q${++nextId}`, type: 'llm_failure', params, lease_ms: 60_000 });

const TOOLS = [
  {
    type: 'function' as const,
    function: {
      name: 'get_weather',
      parameters: {
        type: 'object',
        properties: { city: { type: 'string' }, days: { type: 'number' } },
        required: ['city', 'days'],
      },
    },
  },
];
const ask = (c: OpenAI, extra: Record<string, unknown> = {}) =>
  c.chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }], ...extra });
const askStream = async (c: OpenAI, extra: Record<string, unknown> = {}) => {
  const stream = c.chat.completions.stream({
    model: 'gpt-test',
    messages: [{ role: 'user', content: 'hi' }],
    ...extra,
  } as never);
  return stream.finalChatCompletion();
};

describe('quiet LLM faults with the official openai client', () => {
  it("truncate: a 200 whose text is cut to `keep`, finish_reason 'length', streamed and not", async () => {
    await setup();
    await fault({ error_type: 'truncate', keep: 0.5 });
    const whole = 'Hello from the stand-in';
    const answer = await ask(client());
    expect(answer.choices[0]!.message.content).toBe(whole.slice(0, Math.floor(whole.length / 2)));
    expect(answer.choices[0]!.finish_reason).toBe('length');
    const streamed = await askStream(client());
    expect(streamed.choices[0]!.message.content).toBe(whole.slice(0, Math.floor(whole.length / 2)));
    expect(streamed.choices[0]!.finish_reason).toBe('length');
    expect(proxy.stats().changed).toEqual({ truncate: 2 });
  });

  it('empty: content "" and a normal finish; refusal: message.refusal set and content null', async () => {
    await setup();
    const empty = await fault({ error_type: 'empty', first_n: 2 });
    const a = await ask(client());
    expect(a.choices[0]!.message.content).toBe('');
    expect(a.choices[0]!.finish_reason).toBe('stop');
    const s = await askStream(client());
    expect(s.choices[0]!.message.content ?? '').toBe('');
    await empty.revert!();
    await fault({ error_type: 'refusal' });
    const r = await ask(client());
    expect(r.choices[0]!.message.content).toBeNull();
    expect(r.choices[0]!.message.refusal).toMatch(/can't assist/);
    const rs = await askStream(client());
    expect(rs.choices[0]!.message.refusal).toMatch(/can't assist/);
  });

  it('malformed_tool_args: the tool call arguments fail JSON.parse; an answer without a tool call is not applicable', async () => {
    await setup();
    await fault({ error_type: 'malformed_tool_args' });
    const plain = await ask(client());
    expect(plain.choices[0]!.message.content).toBe('Hello from the stand-in');
    const a = await ask(client(), { tools: TOOLS });
    const args = a.choices[0]!.message.tool_calls![0]!;
    expect(args.type).toBe('function');
    expect(() => JSON.parse((args as { function: { arguments: string } }).function.arguments)).toThrow(SyntaxError);
    const raw = await fetch(`${proxy.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-test', stream: true, tools: TOOLS, messages: [] }),
    });
    const text = await raw.text();
    const pieces = text
      .split('\n\n')
      .filter((e) => e.startsWith('data: {'))
      .flatMap((e) => JSON.parse(e.slice(6)).choices[0].delta.tool_calls ?? [])
      .map((t: { function?: { arguments?: string } }) => t.function?.arguments ?? '')
      .join('');
    expect(() => JSON.parse(pieces)).toThrow(SyntaxError);
    expect(text.trimEnd().endsWith('data: [DONE]')).toBe(true);
    expect(proxy.stats().faults[0]).toMatchObject({ fired: 2, not_applicable: 1 });
  });

  it('wrong_value: numbers in the tool arguments change, the JSON stays valid; the same seed changes the same bytes', async () => {
    const run = async (seed: number) => {
      await setup(seed);
      await fault({ error_type: 'wrong_value' });
      const a = await ask(client(), { tools: TOOLS });
      const args = JSON.parse(
        (a.choices[0]!.message.tool_calls![0] as { function: { arguments: string } }).function.arguments,
      );
      while (cleanups.length > 0) await cleanups.pop()!();
      return args as typeof TOOL_ARGS;
    };
    const first = await run(11);
    expect(first.city).toBe('Paris');
    expect(first.days).not.toBe(TOOL_ARGS.days);
    expect(await run(11)).toEqual(first);
  });

  it('context_length, auth, forbidden: the typed error and code, never retried by the SDK', async () => {
    await setup();
    const cases: Array<[string, unknown, number, string | null]> = [
      ['context_length', OpenAI.BadRequestError, 400, 'context_length_exceeded'],
      ['auth', OpenAI.AuthenticationError, 401, 'invalid_api_key'],
      ['forbidden', OpenAI.PermissionDeniedError, 403, 'unsupported_country_region_territory'],
    ];
    for (const [type, klass, status, code] of cases) {
      const f = await fault({ error_type: type });
      const before = proxy.stats().requests;
      const err = await ask(client(3)).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(klass as typeof OpenAI.APIError);
      expect(err).toMatchObject({ status, code });
      expect(proxy.stats().requests - before).toBe(1);
      await f.revert!();
    }
    expect(proxy.stats().retried_non_retryable).toBe(0);
  });

  it('insufficient_quota: a 429 without retry-after, which the openai SDK retries anyway (reported)', async () => {
    await setup();
    await fault({ error_type: 'insufficient_quota' });
    const c = new OpenAI({ apiKey: 'sk-test', baseURL: `${proxy.url}/v1`, maxRetries: 1, timeout: 20_000 });
    const err = await ask(c).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.RateLimitError);
    expect(err).toMatchObject({ status: 429, code: 'insufficient_quota' });
    expect((err as InstanceType<typeof OpenAI.APIError>).headers?.get('retry-after')).toBeNull();
    expect(proxy.stats().requests).toBe(2);
    expect(proxy.stats().retried_non_retryable).toBe(1);
  });

  it('slow_first_token: the first byte waits delay_ms, then the real answer', async () => {
    await setup();
    await fault({ error_type: 'slow_first_token', delay_ms: 300 });
    const started = performance.now();
    const a = await ask(client());
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    expect(a.choices[0]!.message.content).toBe('Hello from the stand-in');
  });

  it('slow_stream: each streamed event waits chunk_delay_ms; a non-streamed answer is not applicable', async () => {
    await setup();
    await fault({ error_type: 'slow_stream', chunk_delay_ms: 40 });
    const started = performance.now();
    const s = await askStream(client());
    // 8 events (role, 5 tokens, finish, [DONE]), each held 40 ms
    expect(performance.now() - started).toBeGreaterThanOrEqual(8 * 40 - 10);
    expect(s.choices[0]!.message.content).toBe('Hello from the stand-in');
    await ask(client());
    expect(proxy.stats().faults[0]).toMatchObject({ fired: 1, not_applicable: 1 });
  });

  it('rate_limit_storm: the bucket holds a minute of requests, then 429 with retry-after and remaining 0', async () => {
    await setup();
    await fault({ error_type: 'rate_limit_storm', requests_per_min: 2 });
    await ask(client());
    await ask(client());
    const err = (await ask(client()).catch((e: unknown) => e)) as InstanceType<typeof OpenAI.APIError>;
    expect(err).toBeInstanceOf(OpenAI.RateLimitError);
    expect(err.headers?.get('retry-after')).toBe('30');
    expect(err.headers?.get('x-ratelimit-remaining-requests')).toBe('0');
    expect(err.headers?.get('x-ratelimit-limit-requests')).toBe('2');
    expect(upstream.requests).toHaveLength(2);
  });

  it('model_swap: the request goes upstream for to_model and the answer says so', async () => {
    await setup();
    await fault({ error_type: 'model_swap', to_model: 'gpt-cheap' });
    const a = await ask(client());
    expect(a.model).toBe('gpt-cheap');
    expect(JSON.parse(upstream.requests[0]!.body).model).toBe('gpt-cheap');
  });
});
