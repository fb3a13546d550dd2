/**
 * The official `openai` client, pointed at the proxy, against a stand-in
 * upstream: what the SDK itself does for each injected error type.
 */
import OpenAI from 'openai';
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

async function setup(options: { eventGapMs?: number } = {}) {
  upstream = await startStandIn(options);
  proxy = await startLlmProxy({ listen: 0, upstream: upstream.url, api: 'openai', random: createRandom(7) });
  cleanups.push(
    () => upstream.close(),
    () => proxy.close(),
  );
}

const client = (opts: { maxRetries?: number; timeout?: number } = {}) =>
  new OpenAI({
    apiKey: 'sk-test',
    baseURL: `${proxy.url}/v1`,
    maxRetries: opts.maxRetries ?? 0,
    timeout: opts.timeout ?? 5000,
  });

let nextId = 0;
const fault = (params: Record<string, unknown>) =>
  proxy.applyFault({ id: `f${++nextId}`, type: 'llm_failure', params, lease_ms: 60_000 });

const ask = (c: OpenAI, model = 'gpt-test') =>
  c.chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }] });

describe('LLM proxy with the official openai client', () => {
  it('rate_limit: the SDK waits the retry-after, retries, and succeeds once first_n is used up', async () => {
    await setup();
    await fault({ error_type: 'rate_limit', first_n: 2, retry_after_s: 0.2 });
    const started = performance.now();
    const answer = await ask(client({ maxRetries: 2 }));
    const elapsed = performance.now() - started;
    expect(answer.choices[0]!.message.content).toBe('Hello from the');
    expect(elapsed).toBeGreaterThanOrEqual(400);
    expect(upstream.requests).toHaveLength(1);
    const [stats] = proxy.stats().clients;
    expect(stats).toMatchObject({
      requests: 3,
      passed: 1,
      errors_injected: { rate_limit: 2 },
      retries: 2,
      retry_after_honoured: true,
    });
    expect(stats!.retry_after).toMatchObject({ sent: 2, honoured: 2, early: 0, last_retry_after_ms: 200 });
    expect(Math.min(...stats!.retry_after.waits_ms)).toBeGreaterThanOrEqual(190);
  });

  it("rate_limit: after max retries the SDK raises RateLimitError with the API's code, type and headers", async () => {
    await setup();
    await fault({ error_type: 'rate_limit', retry_after_s: 0.05 });
    const err = await ask(client({ maxRetries: 1 })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.RateLimitError);
    const e = err as InstanceType<typeof OpenAI.RateLimitError>;
    expect(e.status).toBe(429);
    expect(e.code).toBe('rate_limit_exceeded');
    expect(e.type).toBe('requests');
    expect(e.param).toBeNull();
    expect(e.headers?.get('retry-after')).toBe('0.05');
    expect(e.requestID).toMatch(/^req_[0-9a-f]{32}$/);
    expect(upstream.requests).toHaveLength(0);
    expect(proxy.stats().errors_injected).toEqual({ rate_limit: 2 });
  });

  it('overloaded is a 503 and server_error a 500, both InternalServerError of type server_error', async () => {
    await setup();
    const f = await fault({ error_type: 'overloaded' });
    const overloaded = (await ask(client()).catch((e: unknown) => e)) as InstanceType<typeof OpenAI.APIError>;
    expect(overloaded).toBeInstanceOf(OpenAI.InternalServerError);
    expect([overloaded.status, overloaded.type, overloaded.code]).toEqual([503, 'server_error', null]);
    await f.revert!();
    await fault({ error_type: 'server_error' });
    const failed = (await ask(client()).catch((e: unknown) => e)) as InstanceType<typeof OpenAI.APIError>;
    expect(failed).toBeInstanceOf(OpenAI.InternalServerError);
    expect([failed.status, failed.type]).toEqual([500, 'server_error']);
    expect(upstream.requests).toHaveLength(0);
  });

  it('timeout: no headers until the SDK gives up, which it reports as APIConnectionTimeoutError after its retries', async () => {
    await setup();
    await fault({ error_type: 'timeout' });
    const started = performance.now();
    const err = await ask(client({ maxRetries: 1, timeout: 150 })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.APIConnectionTimeoutError);
    expect(performance.now() - started).toBeGreaterThanOrEqual(300);
    expect(upstream.requests).toHaveLength(0);
    await waitFor(() => proxy.stats().held === 0);
    expect(proxy.stats().clients[0]).toMatchObject({
      requests: 2,
      gave_up: 2,
      retries: 1,
      errors_injected: { timeout: 2 },
    });
  });

  it('timeout: a held request goes to the upstream when the fault ends, and the SDK gets the answer late', async () => {
    await setup();
    const f = await fault({ error_type: 'timeout' });
    setTimeout(() => void f.revert!(), 200);
    const started = performance.now();
    const answer = await ask(client({ timeout: 5000 }));
    expect(performance.now() - started).toBeGreaterThanOrEqual(190);
    expect(answer.choices[0]!.message.content).toBe('Hello from the');
    expect(upstream.requests).toHaveLength(1);
  });

  it("stream_error: the stream starts (200), delivers the events before the cut, then the SDK's iteration fails", async () => {
    await setup();
    await fault({ error_type: 'stream_error', after_events: 2 });
    const stream = await client().chat.completions.create({
      model: 'gpt-test',
      stream: true,
      messages: [{ role: 'user', content: 'hi' }],
    });
    const got: string[] = [];
    const err = await (async () => {
      for await (const chunk of stream) got.push(chunk.choices[0]!.delta.content ?? '');
    })().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect(got).toEqual(['', 'Hello']);
    expect(proxy.stats().errors_injected).toEqual({ stream_error: 1 });
  });

  it('stream_stall: the stream stops but stays open; a client with a timeout gets an abort error instead of hanging', async () => {
    await setup();
    await fault({ error_type: 'stream_stall', after_events: 1 });
    const got: string[] = [];
    const stream = client().chat.completions.stream(
      { model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }] },
      { signal: AbortSignal.timeout(500) },
    );
    stream.on('chunk', (c) => got.push(c.choices[0]?.delta.content ?? ''));
    const started = performance.now();
    const err = await stream.finalChatCompletion().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.APIUserAbortError);
    expect(performance.now() - started).toBeGreaterThanOrEqual(480);
    expect(got).toEqual(['']);
    await waitFor(() => proxy.stats().stalled === 0);
    expect(proxy.stats().clients[0]).toMatchObject({ gave_up: 1, errors_injected: { stream_stall: 1 } });
  });

  it('stream_stall: when the fault ends the stalled stream goes on from where it stopped', async () => {
    await setup();
    const f = await fault({ error_type: 'stream_stall', after_events: 2 });
    setTimeout(() => void f.revert!(), 150);
    const stream = client().chat.completions.stream({ model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }] });
    const final = await stream.finalChatCompletion();
    expect(final.choices[0]!.message.content).toBe('Hello from the');
    expect(proxy.stats().stalled).toBe(0);
  });

  it('a stream fault applied while a stream is already flowing takes it over too', async () => {
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    upstream = await startStandIn({ gate: () => gate });
    proxy = await startLlmProxy({ listen: 0, upstream: upstream.url, api: 'openai' });
    cleanups.push(
      () => upstream.close(),
      () => proxy.close(),
    );
    const stream = await client().chat.completions.create({
      model: 'gpt-test',
      stream: true,
      messages: [{ role: 'user', content: 'hi' }],
    });
    const got: string[] = [];
    const iterator = stream[Symbol.asyncIterator]();
    got.push((await iterator.next()).value.choices[0].delta.content ?? '');
    // the upstream has sent its first event and waits; the fault arrives now
    const applied = await fault({ error_type: 'stream_error', after_events: 1 });
    expect(applied.report).toMatchObject({ streams_in_flight_taken: 1 });
    open();
    const err = await (async () => {
      for (;;) {
        const next = await iterator.next();
        if (next.done) return undefined;
        got.push(next.value.choices[0].delta.content ?? '');
      }
    })().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect(got).toEqual(['', 'Hello']);
    expect(proxy.stats().errors_injected).toEqual({ stream_error: 1 });
  });

  it('a stream fault leaves non-streamed calls alone and does not count them against first_n', async () => {
    await setup();
    await fault({ error_type: 'stream_error', first_n: 1 });
    expect((await ask(client())).choices[0]!.message.content).toBe('Hello from the');
    const stream = await client().chat.completions.create({
      model: 'gpt-test',
      stream: true,
      messages: [{ role: 'user', content: 'hi' }],
    });
    await expect(
      (async () => {
        for await (const _ of stream) void _;
      })(),
    ).rejects.toThrow();
    expect(proxy.stats().faults[0]).toMatchObject({ fired: 1 });
  });

  it("a dead upstream is a 502 in OpenAI's error shape", async () => {
    upstream = await startStandIn();
    const deadUrl = upstream.url;
    await upstream.close();
    proxy = await startLlmProxy({ listen: 0, upstream: deadUrl, api: 'auto' });
    cleanups.push(() => proxy.close());
    const err = (await ask(client()).catch((e: unknown) => e)) as InstanceType<typeof OpenAI.APIError>;
    expect(err).toBeInstanceOf(OpenAI.InternalServerError);
    expect([err.status, err.type, err.code]).toEqual([502, 'server_error', 'upstream_unreachable']);
    expect(err.message).toMatch(/ECONNREFUSED/);
    expect(proxy.stats().upstream_failures).toBe(1);
  });

  it('probability 0 never fails; a seeded probability fails the same requests on every run', async () => {
    await setup();
    await fault({ error_type: 'server_error', probability: 0 });
    for (let i = 0; i < 20; i++) await ask(client());
    expect(upstream.requests).toHaveLength(20);
    const pattern = async () => {
      const p = await startLlmProxy({ listen: 0, upstream: upstream.url, api: 'openai', random: createRandom(42) });
      await p.applyFault({
        id: 'half',
        type: 'llm_failure',
        params: { error_type: 'server_error', probability: 0.5 },
        lease_ms: 60_000,
      });
      const c = new OpenAI({ apiKey: 'k', baseURL: `${p.url}/v1`, maxRetries: 0 });
      const outcome: boolean[] = [];
      for (let i = 0; i < 16; i++)
        outcome.push(
          await ask(c).then(
            () => true,
            () => false,
          ),
        );
      await p.close();
      return outcome;
    };
    const first = await pattern();
    expect(await pattern()).toEqual(first);
    expect(first).toContain(true);
    expect(first).toContain(false);
  });

  it('match: only requests for the matching model, or on the matching path, fail', async () => {
    await setup();
    await fault({ error_type: 'server_error', match: 'gpt-bad*' });
    expect((await ask(client(), 'gpt-good')).model).toBe('gpt-good');
    await expect(ask(client(), 'gpt-bad-1')).rejects.toBeInstanceOf(OpenAI.InternalServerError);
    const byPath = await fault({ error_type: 'rate_limit', match: '/v1/embeddings' });
    expect((await ask(client(), 'gpt-good')).model).toBe('gpt-good');
    await byPath.revert!();
    // the model-matching fault read the body to decide; the upstream still got it whole
    expect(JSON.parse(upstream.requests.at(-1)!.body)).toMatchObject({
      model: 'gpt-good',
      messages: [{ role: 'user', content: 'hi' }],
    });
  });
});

async function waitFor(check: () => boolean, timeoutMs = 2000): Promise<void> {
  const until = performance.now() + timeoutMs;
  while (!check()) {
    if (performance.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}
