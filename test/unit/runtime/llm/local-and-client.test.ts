import { describe, expect, it } from 'vitest';
import {
  createLlmClient,
  createLocalModel,
  LlmError,
  type LlmProvider,
  type LlmRequest,
} from '../../../../src/runtime/llm/index.js';
import { ManualClock } from '../../../../src/shared/clock.js';
import { UsageError } from '../../../../src/shared/errors.js';

const ask = (content: string): LlmRequest => ({ messages: [{ role: 'user', content }] });

describe('createLocalModel', () => {
  it('is deterministic: same messages, same text; different messages, different text', async () => {
    const model = createLocalModel();
    const a = await model.complete(ask('summarise the plan for agent-1'));
    const b = await createLocalModel().complete(ask('summarise the plan for agent-1'));
    const c = await model.complete(ask('summarise the plan for agent-2'));
    expect(a.text).toBe(b.text);
    expect(a.text).not.toBe(c.text);
    expect(a.provider).toBe('local');
    expect(a.usage.promptTokens).toBe(5);
    expect(a.usage.totalTokens).toBe(a.usage.promptTokens + a.usage.completionTokens);
  });

  it('answers arithmetic and echo requests for real', async () => {
    const model = createLocalModel();
    expect((await model.complete(ask('What is (2 + 3) * 4?'))).text).toBe('The answer is 20.');
    expect((await model.complete(ask('echo: hello world'))).text).toBe('hello world');
  });

  it('rejects malformed requests and honours latency on the injected clock', async () => {
    const clock = new ManualClock();
    const model = createLocalModel({ latencyMs: 200, clock });
    await expect(model.complete({ messages: [] })).rejects.toBeInstanceOf(UsageError);
    let done = false;
    const pending = model.complete(ask('echo hi')).then((r) => ((done = true), r));
    await clock.advance(199);
    expect(done).toBe(false);
    await clock.advance(1);
    expect((await pending).text).toBe('hi');
  });
});

/** a provider that fails with the queued error types, then answers */
function scripted(name: string, failures: LlmError['errorType'][]): LlmProvider & { calls: number } {
  const provider = {
    name,
    calls: 0,
    async complete() {
      provider.calls++;
      const next = failures.shift();
      if (next) throw new LlmError(next, `${name} says ${next}`, { provider: name });
      return {
        text: `from ${name}`,
        provider: name,
        model: 'm',
        usage: { promptTokens: 1, completionTokens: 2, totalTokens: 3 },
      };
    },
  };
  return provider;
}

describe('createLlmClient', () => {
  it('retries retryable errors with exponential backoff on the injected clock', async () => {
    const clock = new ManualClock();
    const primary = scripted('primary', ['rate_limit', 'overloaded']);
    const client = createLlmClient({ primary, retries: 3, backoffMs: 100, clock });
    let done = false;
    const pending = client.complete(ask('hi')).then((r) => ((done = true), r));
    await clock.advance(299); // 100 + 200 needed
    expect(done).toBe(false);
    expect(primary.calls).toBe(2);
    await clock.advance(1);
    expect((await pending).text).toBe('from primary');
    expect(client.stats()).toEqual({ calls: 1, succeeded: 1, failures: 0, retries: 2, fallbacks: 0, primaryErrors: 2 });
  });

  it('does not retry non-retryable errors, and fails without a fallback', async () => {
    const primary = scripted('primary', ['auth']);
    const client = createLlmClient({ primary, retries: 3, backoffMs: 1, clock: new ManualClock() });
    const error = await client.complete(ask('hi')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LlmError);
    expect((error as LlmError).errorType).toBe('auth');
    expect((error as LlmError).retryable).toBe(false);
    expect(primary.calls).toBe(1);
    expect(client.stats().failures).toBe(1);
  });

  it('injectFailure hits the primary only: with a fallback the client keeps serving, without it calls fail', async () => {
    const clock = new ManualClock();
    const primary = createLocalModel({ name: 'primary' });
    const fallback = createLocalModel({ name: 'backup' });
    const client = createLlmClient({ primary, fallback, retries: 1, backoffMs: 10, clock });
    client.injectFailure('server_error');
    expect(client.failureActive).toBe(true);
    const pending = client.complete(ask('echo ok'));
    await clock.advance(10);
    const answer = await pending;
    expect(answer).toMatchObject({ text: 'ok', provider: 'backup' });
    expect(client.stats()).toMatchObject({ fallbacks: 1, retries: 1, primaryErrors: 2, failures: 0 });

    client.configure({ fallbackEnabled: false, retries: 0 });
    const error = await client.complete(ask('echo ok')).catch((e: unknown) => e);
    expect((error as LlmError).errorType).toBe('server_error');

    client.clearFailure();
    expect(client.failureActive).toBe(false);
    expect((await client.complete(ask('echo ok'))).provider).toBe('primary');
  });

  it('honours Retry-After up to the backoff cap, and validates its configuration', async () => {
    const clock = new ManualClock();
    let calls = 0;
    const primary: LlmProvider = {
      name: 'p',
      async complete() {
        if (calls++ === 0) throw new LlmError('rate_limit', 'slow down', { retryAfterMs: 60_000 });
        return {
          text: 'ok',
          provider: 'p',
          model: 'm',
          usage: { promptTokens: 0, completionTokens: 1, totalTokens: 1 },
        };
      },
    };
    const client = createLlmClient({ primary, retries: 1, backoffMs: 10, maxBackoffMs: 500, clock });
    let done = false;
    const pending = client.complete(ask('x')).then(() => (done = true));
    await clock.advance(499);
    expect(done).toBe(false);
    await clock.advance(1);
    await pending;
    expect(() => client.configure({ retries: 1.5 })).toThrow(UsageError);
    expect(() => client.configure({ backoffMs: -1 })).toThrow(UsageError);
  });
});
