/**
 * A stand-in for the OpenAI and Anthropic APIs on a loopback port: chat
 * completions and messages, streamed and not, in the shapes the official
 * SDKs parse. It records every request it gets, so a test can tell what the
 * proxy forwarded (and how often the SDK retried).
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  rawHeaders: string[];
  body: string;
}

export interface StandInOptions {
  /** tokens in each answer (default 3) */
  tokens?: number;
  /** pause between streamed events (default 0) */
  eventGapMs?: number;
  /** when set, a stream waits for this after its first event (proves the proxy does not buffer) */
  gate?: () => Promise<void>;
}

export interface StandIn {
  url: string;
  port: number;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

const TOKENS = ['Hello', ' from', ' the', ' stand', '-in'];

export async function startStandIn(options: StandInOptions = {}): Promise<StandIn> {
  const requests: RecordedRequest[] = [];
  const tokens = TOKENS.slice(0, options.tokens ?? 3);
  const server: Server = createServer((req, res) => {
    void (async () => {
      const body = await readAll(req);
      requests.push({ method: req.method ?? '', path: req.url ?? '', rawHeaders: [...req.rawHeaders], body });
      const json = body
        ? (JSON.parse(body) as {
            stream?: boolean;
            model?: string;
            tools?: unknown[];
            stream_options?: { include_usage?: boolean };
          })
        : {};
      const model = json.model ?? 'stand-in';
      const isAnthropic = (req.url ?? '').startsWith('/v1/messages');
      // a request offering tools gets a call of the first one: get_weather {city, days}
      if (Array.isArray(json.tools) && json.tools.length > 0) {
        const answer = toolAnswer(isAnthropic, model, json.stream === true);
        res.writeHead(200, { 'Content-Type': json.stream ? 'text/event-stream' : 'application/json' });
        res.end(answer);
        return;
      }
      if (!json.stream) {
        const answer = isAnthropic
          ? anthropicMessage(model, tokens.join(''))
          : openaiCompletion(model, tokens.join(''));
        const text = JSON.stringify(answer);
        res.writeHead(200, {
          'Content-Type': 'application/json',
          'X-Request-Id': 'req_standin',
          'X-Stand-In': 'yes',
          'Content-Length': Buffer.byteLength(text),
        });
        res.end(text);
        return;
      }
      res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', 'X-Stand-In': 'yes' });
      res.flushHeaders();
      const events = isAnthropic
        ? anthropicEvents(model, tokens)
        : openaiEvents(model, tokens, json.stream_options?.include_usage === true);
      for (let i = 0; i < events.length; i++) {
        if (res.destroyed) return;
        res.write(events[i]);
        if (i === 0 && options.gate) await options.gate();
        else if (options.eventGapMs) await new Promise((r) => setTimeout(r, options.eventGapMs));
      }
      res.end();
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function readAll(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (d: string) => (text += d));
    req.on('end', () => resolve(text));
    req.on('error', () => resolve(text));
  });
}

function openaiCompletion(model: string, text: string) {
  return {
    id: 'chatcmpl-standin',
    object: 'chat.completion',
    created: 1_700_000_000,
    model,
    choices: [
      { index: 0, message: { role: 'assistant', content: text, refusal: null }, logprobs: null, finish_reason: 'stop' },
    ],
    usage: { prompt_tokens: 5, completion_tokens: 3, total_tokens: 8 },
  };
}

/** one `data:` event per token, a finishing chunk, the usage chunk when asked for, then `[DONE]` */
export function openaiEvents(model: string, tokens: string[], includeUsage = false): string[] {
  const chunk = (delta: Record<string, unknown>, finish: string | null) =>
    `data: ${JSON.stringify({ id: 'chatcmpl-standin', object: 'chat.completion.chunk', created: 1_700_000_000, model, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] })}\n\n`;
  return [
    chunk({ role: 'assistant', content: '' }, null),
    ...tokens.map((t) => chunk({ content: t }, null)),
    chunk({}, 'stop'),
    // stream_options.include_usage: a last chunk with no choices and the whole call's usage
    ...(includeUsage
      ? [
          `data: ${JSON.stringify({ id: 'chatcmpl-standin', object: 'chat.completion.chunk', created: 1_700_000_000, model, choices: [], usage: { prompt_tokens: 5, completion_tokens: tokens.length, total_tokens: 5 + tokens.length } })}\n\n`,
        ]
      : []),
    'data: [DONE]\n\n',
  ];
}

function anthropicMessage(model: string, text: string) {
  return {
    id: 'msg_standin',
    type: 'message',
    role: 'assistant',
    model,
    content: [{ type: 'text', text }],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: 5, output_tokens: 3 },
  };
}

export function anthropicEvents(model: string, tokens: string[]): string[] {
  const ev = (name: string, data: unknown) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
  return [
    ev('message_start', {
      type: 'message_start',
      message: {
        ...anthropicMessage(model, ''),
        content: [],
        stop_reason: null,
        usage: { input_tokens: 5, output_tokens: 0 },
      },
    }),
    ev('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
    ...tokens.map((t) =>
      ev('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: t } }),
    ),
    ev('content_block_stop', { type: 'content_block_stop', index: 0 }),
    ev('message_delta', {
      type: 'message_delta',
      delta: { stop_reason: 'end_turn', stop_sequence: null },
      usage: { output_tokens: tokens.length },
    }),
    ev('message_stop', { type: 'message_stop' }),
  ];
}

export const TOOL_ARGS = { city: 'Paris', days: 3 };

/** one call of get_weather, in the provider's shape, streamed (arguments in two pieces) or not */
function toolAnswer(isAnthropic: boolean, model: string, isStream: boolean): string {
  const args = JSON.stringify(TOOL_ARGS);
  const [a, b] = [args.slice(0, 9), args.slice(9)];
  if (isAnthropic) {
    const block = { type: 'tool_use', id: 'toolu_standin', name: 'get_weather', input: TOOL_ARGS };
    if (!isStream) return JSON.stringify({ ...anthropicMessage(model, ''), content: [block], stop_reason: 'tool_use' });
    const ev = (name: string, data: unknown) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
    return [
      ev('message_start', {
        type: 'message_start',
        message: { ...anthropicMessage(model, ''), content: [], stop_reason: null },
      }),
      ev('content_block_start', { type: 'content_block_start', index: 0, content_block: { ...block, input: {} } }),
      ...[a, b].map((p) =>
        ev('content_block_delta', {
          type: 'content_block_delta',
          index: 0,
          delta: { type: 'input_json_delta', partial_json: p },
        }),
      ),
      ev('content_block_stop', { type: 'content_block_stop', index: 0 }),
      ev('message_delta', {
        type: 'message_delta',
        delta: { stop_reason: 'tool_use', stop_sequence: null },
        usage: { output_tokens: 9 },
      }),
      ev('message_stop', { type: 'message_stop' }),
    ].join('');
  }
  const call = { id: 'call_standin', type: 'function', function: { name: 'get_weather', arguments: args } };
  if (!isStream) {
    const c = openaiCompletion(model, '');
    c.choices[0] = {
      ...c.choices[0]!,
      message: { role: 'assistant', content: null as unknown as string, refusal: null, tool_calls: [call] } as never,
      finish_reason: 'tool_calls',
    };
    return JSON.stringify(c);
  }
  const chunk = (delta: Record<string, unknown>, finish: string | null) =>
    `data: ${JSON.stringify({ id: 'chatcmpl-standin', object: 'chat.completion.chunk', created: 1_700_000_000, model, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] })}\n\n`;
  return [
    chunk(
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ index: 0, ...call, function: { name: 'get_weather', arguments: '' } }],
      },
      null,
    ),
    chunk({ tool_calls: [{ index: 0, function: { arguments: a } }] }, null),
    chunk({ tool_calls: [{ index: 0, function: { arguments: b } }] }, null),
    chunk({}, 'tool_calls'),
    'data: [DONE]\n\n',
  ].join('');
}
