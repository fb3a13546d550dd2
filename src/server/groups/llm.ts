/** LLM group: chat and generate through the configured LLM client; its call stats. */
import { UsageError } from '../../shared/errors.js';
import type { Router } from '../router.js';
import { asObject, optionalInt, optionalString, requiredString, type Awaitable } from './input.js';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface LLMCall {
  messages: ChatMessage[];
  model?: string;
  max_tokens?: number;
}

export interface LLMService {
  complete(call: LLMCall, signal: AbortSignal): Awaitable<unknown>;
  stats(): Awaitable<unknown>;
}

const ROLES = new Set(['system', 'user', 'assistant']);

function common(body: Record<string, unknown>, messages: ChatMessage[]): LLMCall {
  const call: LLMCall = { messages };
  const model = optionalString(body, 'model');
  const maxTokens = optionalInt(body, 'max_tokens', 'body', 1, 1_000_000);
  if (model !== undefined) call.model = model;
  if (maxTokens !== undefined) call.max_tokens = maxTokens;
  return call;
}

export function registerLLMRoutes(router: Router, service: LLMService): void {
  router.post('/api/v1/llm/chat', async (ctx) => {
    const body = asObject(await ctx.json());
    if (!Array.isArray(body.messages) || body.messages.length === 0) {
      throw new UsageError('body.messages must be a non-empty array of {role, content}', 'invalid_input');
    }
    const messages = body.messages.map((m, i) => {
      const where = `body.messages[${i}]`;
      const msg = asObject(m, where);
      const role = requiredString(msg, 'role', where);
      if (!ROLES.has(role)) throw new UsageError(`${where}.role must be system, user or assistant, got "${role}"`, 'invalid_input');
      return { role: role as ChatMessage['role'], content: requiredString(msg, 'content', where) };
    });
    return service.complete(common(body, messages), ctx.signal);
  });
  router.post('/api/v1/llm/generate', async (ctx) => {
    const body = asObject(await ctx.json());
    const messages: ChatMessage[] = [];
    const system = optionalString(body, 'system');
    if (system) messages.push({ role: 'system', content: system });
    messages.push({ role: 'user', content: requiredString(body, 'prompt') });
    return service.complete(common(body, messages), ctx.signal);
  });
  router.get('/api/v1/llm/stats', async () => service.stats());
}
