/**
 * DESIGN §13.3 through the LLM proxy: a number wrong_value changed in a tool
 * call is looked for in the agent's later requests. The official client sends
 * the call back in its history (it entered the context and drove an action);
 * a request without it counts nothing.
 */
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { startLlmProxy, type LlmProxy } from '../../../../src/proxies/llm/index.js';
import { createMarkerBook } from '../../../../src/protocol/markers.js';
import { createRandom } from '../../../../src/shared/random.js';
import { startStandIn, TOOL_ARGS } from '../../../helpers/llm-upstream.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

const TOOLS = [
  {
    type: 'function' as const,
    function: {
      name: 'get_weather',
      parameters: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'number' } } },
    },
  },
];

describe('markers through the LLM proxy', () => {
  it('a wrong_value in a tool call is traced into the next request: entered the context, drove an action', async () => {
    const upstream = await startStandIn({ tokens: 5 });
    const markers = createMarkerBook();
    const proxy: LlmProxy = await startLlmProxy({
      listen: 0,
      upstream: upstream.url,
      api: 'openai',
      random: createRandom(5),
      markers,
    });
    cleanups.push(
      () => upstream.close(),
      () => proxy.close(),
    );
    const client = new OpenAI({ apiKey: 'sk-test', baseURL: `${proxy.url}/v1`, maxRetries: 0 });
    const fault = await proxy.applyFault({
      id: 'wv1',
      type: 'llm_failure',
      params: { error_type: 'wrong_value', first_n: 1 },
      lease_ms: 60_000,
    });
    const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'weather?' }];
    const first = await client.chat.completions.create({ model: 'gpt-test', messages, tools: TOOLS });
    const call = first.choices[0]!.message.tool_calls![0] as OpenAI.ChatCompletionMessageFunctionToolCall;
    const days = (JSON.parse(call.function.arguments) as typeof TOOL_ARGS).days;
    expect(days).not.toBe(TOOL_ARGS.days);
    // a request that does not carry it counts nothing
    await client.chat.completions.create({ model: 'gpt-test', messages });
    expect(proxy.stats().markers).toEqual([
      expect.objectContaining({ fault_id: 'wv1', kind: 'value', source: 'llm', entered_context: 0, drove_action: 0 }),
    ]);
    // the agent ran the call and sends the turn back with the tool's answer
    messages.push(first.choices[0]!.message, {
      role: 'tool',
      tool_call_id: call.id,
      content: `sunny for ${days} days`,
    });
    await client.chat.completions.create({ model: 'gpt-test', messages });
    expect(proxy.stats().markers[0]).toMatchObject({ entered_context: 1, drove_action: 1, reached_user: 0 });
    // the shared book is what a target's workload scans its answers with
    markers.scan(`{"days":${days}}`, 'reached_user');
    expect(proxy.stats().markers[0]!.reached_user).toBe(1);
    await fault.revert?.();
  });
});
