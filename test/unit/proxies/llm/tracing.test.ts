/**
 * The LLM proxy's spans, exported for real over OTLP/HTTP (http/json) to a
 * receiver in this process: the official openai client sends its own
 * `traceparent`, the proxy's span is its child, carries the GenAI attributes,
 * and the stand-in upstream receives the proxy span's `traceparent`. An
 * injected 429 is a span of its own inside the client's trace.
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { startLlmProxy, type LlmProxy } from '../../../../src/proxies/llm/index.js';
import { createRandom } from '../../../../src/shared/random.js';
import { resolveOtlpConfig } from '../../../../src/shared/otlp/config.js';
import { startTracing, type Tracing } from '../../../../src/shared/otlp/tracing.js';
import { startStandIn, type StandIn } from '../../../helpers/llm-upstream.js';
import { startOtlpReceiver, type OtlpReceiver } from '../../../helpers/otlp-receiver.js';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const CLIENT_SPAN = '00f067aa0ba902b7';
const TRACEPARENT = `00-${TRACE_ID}-${CLIENT_SPAN}-01`;

let upstream: StandIn;
let proxy: LlmProxy;
let receiver: OtlpReceiver;
let tracing: Tracing;
const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

async function setup(api: 'openai' | 'anthropic' = 'openai') {
  receiver = await startOtlpReceiver();
  cleanups.push(() => receiver.close());
  tracing = await startTracing(
    resolveOtlpConfig(receiver.url, { OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' }, 'llm-proxy-test')!,
  );
  cleanups.push(() => tracing.shutdown());
  upstream = await startStandIn();
  cleanups.push(() => upstream.close());
  proxy = await startLlmProxy({ listen: 0, upstream: upstream.url, api, random: createRandom(7), tracing });
  cleanups.push(() => proxy.close());
}

/** the spans once every one has gone out */
async function exported() {
  await proxy.close();
  await tracing.shutdown();
  return receiver.spans();
}

const header = (raw: string[], name: string) => {
  const i = raw.findIndex((h, j) => j % 2 === 0 && h.toLowerCase() === name);
  return i < 0 ? undefined : raw[i + 1];
};

describe('LLM proxy spans', () => {
  it("are children of the client's traceparent, carry the GenAI attributes, and pass their own traceparent upstream; an injected 429 is a span in the same trace", async () => {
    await setup();
    await proxy.applyFault({
      id: 'f1',
      type: 'llm_failure',
      params: { error_type: 'rate_limit', first_n: 1, retry_after_s: 0.05 },
      lease_ms: 60_000,
    });
    const client = new OpenAI({
      apiKey: 'sk-test',
      baseURL: `${proxy.url}/v1`,
      maxRetries: 1,
      defaultHeaders: { traceparent: TRACEPARENT },
    });
    const answer = await client.chat.completions.create({
      model: 'gpt-test',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(answer.choices[0]!.message.content).toBe('Hello from the');

    const spans = await exported();
    expect(spans).toHaveLength(2);
    for (const s of spans) {
      expect(s.traceId).toBe(TRACE_ID);
      expect(s.parentSpanId).toBe(CLIENT_SPAN);
      expect(s.kind).toBe(3); // SPAN_KIND_CLIENT
      expect(s.name).toBe('chat gpt-test');
      expect(s.attributes).toMatchObject({
        'gen_ai.operation.name': 'chat',
        'gen_ai.provider.name': 'openai',
        'gen_ai.system': 'openai',
        'gen_ai.request.model': 'gpt-test',
      });
    }
    const [refused, answered] = [...spans].sort((a, b) => a.startMs - b.startMs);
    expect(refused!.attributes).toMatchObject({
      'error.type': '429',
      'chaos.fault.type': 'rate_limit',
      'http.response.status_code': 429,
    });
    expect(refused!.status.code).toBe(2);
    expect(answered!.attributes).toMatchObject({
      'http.response.status_code': 200,
      'gen_ai.response.model': 'gpt-test',
      'gen_ai.usage.input_tokens': 5,
      'gen_ai.usage.output_tokens': 3,
    });
    expect(answered!.attributes['error.type']).toBeUndefined();

    // the upstream's parent is the proxy's span, in the client's trace (never the client's own span id)
    expect(upstream.requests).toHaveLength(1);
    const sent = header(upstream.requests[0]!.rawHeaders, 'traceparent');
    expect(sent).toBe(`00-${TRACE_ID}-${answered!.spanId}-01`);
  });

  it('a streamed Anthropic answer: usage from message_start and message_delta; without a traceparent the span starts a trace', async () => {
    await setup('anthropic');
    const client = new Anthropic({ apiKey: 'sk-ant-test', baseURL: proxy.url, maxRetries: 0 });
    const stream = client.messages.stream({
      model: 'claude-test',
      max_tokens: 64,
      messages: [{ role: 'user', content: 'hi' }],
    });
    await stream.finalMessage();
    const [span] = await exported();
    expect(span!.parentSpanId).toBe('');
    expect(span!.attributes).toMatchObject({
      'gen_ai.provider.name': 'anthropic',
      'gen_ai.request.model': 'claude-test',
      'gen_ai.response.model': 'claude-test',
      'gen_ai.usage.input_tokens': 5,
      'gen_ai.usage.output_tokens': expect.any(Number),
    });
    const sent = header(upstream.requests[0]!.rawHeaders, 'traceparent');
    expect(sent).toBe(`00-${span!.traceId}-${span!.spanId}-01`);
  });
});
