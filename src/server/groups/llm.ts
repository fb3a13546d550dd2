/** LLM group: chat and generate through the configured LLM client; its call stats. */
import type { Routes } from '../routes.js';
import { body, id, int, text, z } from '../body.js';
import type { Awaitable } from './input.js';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface LlmCall {
  messages: ChatMessage[];
  model?: string;
  max_tokens?: number;
}

export interface LlmService {
  complete(call: LlmCall, signal: AbortSignal): Awaitable<unknown>;
  stats(): Awaitable<unknown>;
}

const common = { model: id().optional(), max_tokens: int(1, 1_000_000).optional() };
const Message = z.strictObject({ role: z.enum(['system', 'user', 'assistant']), content: text(200_000) });
export const LlmChat = z.strictObject({
  messages: z.array(Message).min(1, 'must hold at least one {role, content}').max(1000),
  ...common,
});
export const Generate = z.strictObject({
  prompt: text(200_000),
  system: z.string().max(200_000).optional(),
  ...common,
});

function call(
  input: { model?: string | undefined; max_tokens?: number | undefined },
  messages: ChatMessage[],
): LlmCall {
  const out: LlmCall = { messages };
  if (input.model !== undefined) out.model = input.model;
  if (input.max_tokens !== undefined) out.max_tokens = input.max_tokens;
  return out;
}

export function registerLlmRoutes(router: Routes, service: LlmService): void {
  router.post('/api/v1/llm/chat', async (ctx) => {
    const input = await body(ctx, LlmChat);
    return service.complete(call(input, input.messages), ctx.signal);
  });
  router.post('/api/v1/llm/generate', async (ctx) => {
    const input = await body(ctx, Generate);
    const messages: ChatMessage[] = [];
    if (input.system) messages.push({ role: 'system', content: input.system });
    messages.push({ role: 'user', content: input.prompt });
    return service.complete(call(input, messages), ctx.signal);
  });
  router.get('/api/v1/llm/stats', async () => service.stats());
}
