/**
 * The default model: offline and deterministic (same messages → same text),
 * so the embedded runtime's workflows have known expected outputs. It answers
 * arithmetic for real, echoes on request, and otherwise gives a short reply
 * stamped with a hash of the whole conversation.
 */
import { createHash } from 'node:crypto';
import type { Clock } from '../../shared/clock.js';
import { systemClock } from '../../shared/clock.js';
import { evaluateExpression } from '../tools/expression.js';
import { countTokens, type LlmMessage, type LlmProvider, type LlmRequest, type LlmResponse } from './types.js';
import { UsageError } from '../../shared/errors.js';
import { RE2JS } from 're2js';

/**
 * An arithmetic expression somewhere in the message. On RE2: the backtracking
 * engine took seconds on a long run of digits (every start position rescans
 * the rest), and this runs on whatever a client sends.
 */
const MATH = RE2JS.compile('[-+(]*\\d[\\d.\\s]*(?:[-+*/%^()]+\\s*[\\d.(][\\d.\\s()]*)+');

export interface LocalModelOptions {
  name?: string;
  model?: string;
  /** simulated thinking time on the injected clock; default 0 */
  latencyMs?: number;
  clock?: Clock;
}

export function createLocalModel(options: LocalModelOptions = {}): LlmProvider {
  const name = options.name ?? 'local';
  const model = options.model ?? 'local-deterministic-1';
  const latencyMs = options.latencyMs ?? 0;
  const clock = options.clock ?? systemClock;
  return {
    name,
    async complete(request: LlmRequest): Promise<LlmResponse> {
      validateMessages(request.messages);
      if (request.signal?.aborted) throw request.signal.reason;
      if (latencyMs > 0) await clock.sleep(latencyMs, request.signal);
      let text = respond(request.messages);
      if (request.maxTokens !== undefined) text = text.split(/\s+/).slice(0, Math.max(1, request.maxTokens)).join(' ');
      const promptTokens = request.messages.reduce((n, m) => n + countTokens(m.content), 0);
      const completionTokens = countTokens(text);
      return {
        text,
        provider: name,
        model: request.model ?? model,
        usage: { promptTokens, completionTokens, totalTokens: promptTokens + completionTokens },
      };
    },
  };
}

export function validateMessages(messages: unknown): asserts messages is LlmMessage[] {
  if (!Array.isArray(messages) || messages.length === 0)
    throw new UsageError('LLM request needs a non-empty "messages" array', { code: 'invalid_llm_request' });
  messages.forEach((m, i) => {
    if (
      typeof m !== 'object' ||
      m === null ||
      typeof m.content !== 'string' ||
      !['system', 'user', 'assistant'].includes(m.role)
    ) {
      throw new UsageError(`messages[${i}] must be {role: system|user|assistant, content: string}`, {
        code: 'invalid_llm_request',
      });
    }
  });
}

function respond(messages: LlmMessage[]): string {
  const last =
    [...messages]
      .reverse()
      .find((m) => m.role === 'user')
      ?.content.trim() ?? '';
  const echo = /^(?:echo|repeat)\s*:?\s+([\s\S]+)$/i.exec(last);
  if (echo) return echo[1]!;
  const math = MATH.matcher(last);
  if (math.find()) {
    try {
      return `The answer is ${evaluateExpression(math.group()!.trim())}.`;
    } catch {
      // not a well-formed expression: fall through to the generic reply
    }
  }
  const digest = createHash('sha256')
    .update(JSON.stringify(messages.map((m) => [m.role, m.content])))
    .digest('hex')
    .slice(0, 8);
  const topic = last.split(/\s+/).filter(Boolean).slice(0, 8).join(' ');
  return topic ? `Acknowledged: ${topic} [${digest}]` : `Ready. [${digest}]`;
}
