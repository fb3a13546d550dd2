/**
 * Tokens an answer says it cost, read from the provider's own `usage`, in the
 * three wire shapes the proxy relays:
 *  - OpenAI chat completions: `usage.prompt_tokens` / `completion_tokens`; streamed, the final chunk's
 *    `usage` (sent only when the request asked for `stream_options.include_usage`);
 *  - OpenAI Responses API: `usage.input_tokens` / `output_tokens`; streamed, `response.completed`
 *    (or `.incomplete` / `.failed`) carries the response with its usage;
 *  - Anthropic messages: `usage.input_tokens` / `output_tokens`; streamed, `message_start` gives the
 *    input and `message_delta` the cumulative final counts.
 * Anthropic counts cache reads and writes apart from `input_tokens`; they are added to `input` so that
 * both providers count every prompt token the model read (OpenAI's counts include cached ones).
 * When the answer carries no usage, or a stream ends before its final usage, tokens stay absent:
 * never estimated.
 */
import { StringDecoder } from 'node:string_decoder';

export interface AnswerUsage {
  /** the model the answer names */
  model?: string;
  tokens?: { input: number; output: number };
}

// biome-ignore lint/suspicious/noExplicitAny: provider JSON, every field checked where it is read
type Json = Record<string, any>;

/** a non-null `usage` object somewhere in an event's data (`"usage":null` is what most chunks carry) */
const HAS_USAGE = /"usage"\s*:\s*\{/;

const count = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : undefined;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** tokens of a `usage` object in any of the three shapes; undefined when it has no counts */
export function tokensOf(usage: unknown): AnswerUsage['tokens'] {
  if (!isObject(usage)) return undefined;
  // OpenAI chat completions
  const prompt = count(usage.prompt_tokens);
  const completion = count(usage.completion_tokens);
  if (prompt !== undefined && completion !== undefined) return { input: prompt, output: completion };
  // OpenAI Responses API and Anthropic messages
  const input = count(usage.input_tokens);
  const output = count(usage.output_tokens);
  if (input === undefined || output === undefined) return undefined;
  const cached = (count(usage.cache_creation_input_tokens) ?? 0) + (count(usage.cache_read_input_tokens) ?? 0);
  return { input: input + cached, output };
}

/** model and tokens of one whole JSON answer (a chat completion, a response, a message) */
export function usageOfJson(json: unknown): AnswerUsage {
  if (!isObject(json)) return {};
  const out: AnswerUsage = {};
  if (typeof json.model === 'string') out.model = json.model;
  const tokens = tokensOf(json.usage);
  if (tokens) out.tokens = tokens;
  return out;
}

/**
 * Reads a streamed answer's events as they pass, keeping only the event being
 * read (at most `maxEventBytes`; a larger event is skipped, it never carries usage).
 */
export class StreamUsage {
  private decoder = new StringDecoder('utf8');
  private pending = '';
  private isSkipping = false;
  private model?: string;
  /** Anthropic: message_start's usage, completed by message_delta's */
  private started?: Json;
  private tokens?: AnswerUsage['tokens'];

  constructor(private readonly maxEventBytes = 1024 * 1024) {}

  feed(chunk: Buffer | string): void {
    this.pending += typeof chunk === 'string' ? chunk : this.decoder.write(chunk);
    for (;;) {
      const end = /\r\n\r\n|\n\n|\r\r/.exec(this.pending);
      if (!end) break;
      const event = this.pending.slice(0, end.index);
      this.pending = this.pending.slice(end.index + end[0].length);
      if (this.isSkipping) this.isSkipping = false;
      else this.onEvent(event);
    }
    if (this.pending.length > this.maxEventBytes) {
      this.pending = '';
      this.isSkipping = true;
    }
  }

  result(): AnswerUsage {
    // an event not followed by a blank line (the stream ended without one) is still read
    if (!this.isSkipping && this.pending.trim() !== '') this.onEvent(this.pending);
    this.pending = '';
    return {
      ...(this.model !== undefined ? { model: this.model } : {}),
      ...(this.tokens ? { tokens: this.tokens } : {}),
    };
  }

  private onEvent(raw: string): void {
    const data: string[] = [];
    for (const line of raw.split(/\r\n|\n|\r/))
      if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
    const text = data.join('\n');
    if (text === '' || text === '[DONE]') return;
    // most events are text deltas: once the model is known, only one with a usage object is parsed
    if (this.model !== undefined && !HAS_USAGE.test(text)) return;
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return;
    }
    if (!isObject(json)) return;
    switch (json.type) {
      case 'message_start': {
        const message = isObject(json.message) ? json.message : {};
        if (typeof message.model === 'string') this.model = message.model;
        if (isObject(message.usage)) this.started = { ...message.usage };
        return;
      }
      case 'message_delta': {
        if (!isObject(json.usage)) return;
        // cumulative counts: a field the delta gives (not null) replaces message_start's
        const merged: Json = { ...(this.started ?? {}) };
        for (const [key, value] of Object.entries(json.usage)) if (value !== null) merged[key] = value;
        this.tokens = tokensOf(merged) ?? this.tokens;
        return;
      }
      case 'response.created':
      case 'response.in_progress':
      case 'response.completed':
      case 'response.incomplete':
      case 'response.failed': {
        const response = isObject(json.response) ? json.response : {};
        if (typeof response.model === 'string') this.model = response.model;
        this.tokens = tokensOf(response.usage) ?? this.tokens;
        return;
      }
    }
    // OpenAI chat completion chunks: every chunk names the model; only the last has a non-null usage
    if (typeof json.model === 'string') this.model = json.model;
    this.tokens = tokensOf(json.usage) ?? this.tokens;
  }
}
