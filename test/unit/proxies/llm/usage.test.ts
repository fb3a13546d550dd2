/**
 * Usage parsing per wire format, streamed and not, in the shapes the official
 * SDKs parse (openai-node's CompletionUsage and ResponseUsage, the Anthropic
 * SDK's Usage and MessageDeltaUsage), fed in arbitrary chunk sizes.
 */
import { PassThrough } from 'node:stream';
import type { IncomingMessage } from 'node:http';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tapAnswer } from '../../../../src/proxies/llm/answer-tap.js';
import { StreamUsage, usageOfJson } from '../../../../src/proxies/llm/usage.js';

const sse = (events: Array<{ event?: string; data: unknown }>) =>
  events
    .map(
      (e) =>
        `${e.event ? `event: ${e.event}\n` : ''}data: ${typeof e.data === 'string' ? e.data : JSON.stringify(e.data)}\n\n`,
    )
    .join('');

const OPENAI_STREAM = sse([
  {
    data: {
      object: 'chat.completion.chunk',
      model: 'gpt-4o-mini-2024-07-18',
      choices: [{ delta: { content: 'Hi' } }],
      usage: null,
    },
  },
  {
    data: {
      object: 'chat.completion.chunk',
      model: 'gpt-4o-mini-2024-07-18',
      choices: [{ delta: {}, finish_reason: 'stop' }],
      usage: null,
    },
  },
  {
    data: {
      object: 'chat.completion.chunk',
      model: 'gpt-4o-mini-2024-07-18',
      choices: [],
      usage: { prompt_tokens: 12, completion_tokens: 7, total_tokens: 19, prompt_tokens_details: { cached_tokens: 0 } },
    },
  },
  { data: '[DONE]' },
]);

const RESPONSES_STREAM = sse([
  { event: 'response.created', data: { type: 'response.created', response: { model: 'gpt-4.1', usage: null } } },
  { event: 'response.output_text.delta', data: { type: 'response.output_text.delta', delta: 'Hi' } },
  {
    event: 'response.completed',
    data: {
      type: 'response.completed',
      response: { model: 'gpt-4.1', usage: { input_tokens: 30, output_tokens: 4, total_tokens: 34 } },
    },
  },
]);

const ANTHROPIC_STREAM = sse([
  {
    event: 'message_start',
    data: {
      type: 'message_start',
      message: {
        model: 'claude-sonnet-4-5',
        usage: { input_tokens: 20, cache_read_input_tokens: 100, cache_creation_input_tokens: 0, output_tokens: 1 },
      },
    },
  },
  {
    event: 'content_block_delta',
    data: { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hi' } },
  },
  {
    event: 'message_delta',
    data: {
      type: 'message_delta',
      delta: { stop_reason: 'end_turn' },
      usage: { input_tokens: null, output_tokens: 15 },
    },
  },
  { event: 'message_stop', data: { type: 'message_stop' } },
]);

/** the text fed in pieces cut at the given offsets */
function scan(text: string, cuts: number[]) {
  const scanner = new StreamUsage();
  const bytes = Buffer.from(text);
  let at = 0;
  for (const cut of [...cuts].sort((a, b) => a - b)) {
    scanner.feed(bytes.subarray(at, Math.max(at, cut)));
    at = Math.max(at, cut);
  }
  scanner.feed(bytes.subarray(at));
  return scanner.result();
}

describe('usage of a whole JSON answer', () => {
  it('OpenAI chat completion, Responses API, Anthropic message (cache tokens counted as input)', () => {
    expect(
      usageOfJson({ object: 'chat.completion', model: 'gpt-4o', usage: { prompt_tokens: 9, completion_tokens: 2 } }),
    ).toEqual({ model: 'gpt-4o', tokens: { input: 9, output: 2 } });
    expect(
      usageOfJson({
        object: 'response',
        model: 'gpt-4.1',
        usage: { input_tokens: 30, output_tokens: 4, total_tokens: 34 },
      }),
    ).toEqual({ model: 'gpt-4.1', tokens: { input: 30, output: 4 } });
    expect(
      usageOfJson({
        type: 'message',
        model: 'claude-haiku-4-5',
        usage: { input_tokens: 3, cache_creation_input_tokens: 40, cache_read_input_tokens: 2, output_tokens: 8 },
      }),
    ).toEqual({ model: 'claude-haiku-4-5', tokens: { input: 45, output: 8 } });
  });

  it('no usage, or counts that are not numbers: no tokens', () => {
    expect(usageOfJson({ model: 'm' })).toEqual({ model: 'm' });
    expect(usageOfJson({ usage: { prompt_tokens: '9', completion_tokens: 2 } })).toEqual({});
    expect(usageOfJson([1, 2])).toEqual({});
  });
});

describe('usage of a streamed answer', () => {
  it('OpenAI chat: the final chunk of include_usage; Responses: response.completed; Anthropic: message_start + message_delta', () => {
    expect(scan(OPENAI_STREAM, [])).toEqual({ model: 'gpt-4o-mini-2024-07-18', tokens: { input: 12, output: 7 } });
    expect(scan(RESPONSES_STREAM, [])).toEqual({ model: 'gpt-4.1', tokens: { input: 30, output: 4 } });
    expect(scan(ANTHROPIC_STREAM, [])).toEqual({ model: 'claude-sonnet-4-5', tokens: { input: 120, output: 15 } });
  });

  it('the same result however the bytes are cut into chunks (property)', () => {
    for (const text of [OPENAI_STREAM, RESPONSES_STREAM, ANTHROPIC_STREAM]) {
      const whole = scan(text, []);
      fc.assert(
        fc.property(fc.array(fc.integer({ min: 0, max: Buffer.byteLength(text) }), { maxLength: 12 }), (cuts) => {
          expect(scan(text, cuts)).toEqual(whole);
        }),
        { numRuns: 200 },
      );
    }
  });

  it('a stream that ends before its final usage has no tokens (message_start alone is not a count)', () => {
    const cut = ANTHROPIC_STREAM.slice(0, ANTHROPIC_STREAM.indexOf('event: message_delta'));
    expect(scan(cut, [])).toEqual({ model: 'claude-sonnet-4-5' });
    const noUsage = OPENAI_STREAM.slice(
      0,
      OPENAI_STREAM.indexOf('data: {"object":"chat.completion.chunk","model":"gpt-4o-mini-2024-07-18","choices":[]'),
    );
    expect(scan(noUsage, []).tokens).toBeUndefined();
  });
});

describe('the answer tap', () => {
  const answer = (headers: Record<string, string>, status = 200) => {
    const stream = new PassThrough() as unknown as IncomingMessage & PassThrough;
    Object.assign(stream, { statusCode: status, headers, complete: false });
    return stream;
  };
  const end = (stream: PassThrough & { complete: boolean }, body: Buffer) =>
    new Promise<void>((resolve) => {
      stream.on('end', () => resolve());
      stream.complete = true;
      stream.end(body);
    });

  it('reads a gzip-compressed JSON answer within the budget, and returns the budget after', async () => {
    const budget = { used: 0, max: 1 << 20 };
    const res = answer({ 'content-type': 'application/json', 'content-encoding': 'gzip' });
    const tap = tapAnswer(res, budget);
    await end(res, gzipSync(JSON.stringify({ model: 'm', usage: { prompt_tokens: 4, completion_tokens: 1 } })));
    expect(budget.used).toBeGreaterThan(0);
    expect(tap.finish()).toEqual({ model: 'm', tokens: { input: 4, output: 1 } });
    expect(budget.used).toBe(0);
  });

  it('an answer over the shared budget, an error status or a broken answer: no tokens, nothing kept', async () => {
    const budget = { used: 0, max: 10 };
    const big = answer({ 'content-type': 'application/json' });
    const tap = tapAnswer(big, budget);
    await end(big, Buffer.from(JSON.stringify({ usage: { prompt_tokens: 4, completion_tokens: 1 } })));
    expect(tap.finish()).toEqual({});
    expect(budget.used).toBe(0);
    const error = answer({ 'content-type': 'application/json' }, 429);
    const errTap = tapAnswer(error, { used: 0, max: 1 << 20 });
    error.resume(); // relayed unread: in the proxy, the pipe to the client reads it
    await end(error, Buffer.from(JSON.stringify({ usage: { prompt_tokens: 4, completion_tokens: 1 } })));
    expect(errTap.finish()).toEqual({});
    const broken = answer({ 'content-type': 'application/json' });
    const brokenTap = tapAnswer(broken, { used: 0, max: 1 << 20 });
    broken.write(Buffer.from('{"usage":{"prompt_tokens":4,'));
    await new Promise((r) => setImmediate(r));
    expect(brokenTap.finish()).toEqual({});
  });
});
