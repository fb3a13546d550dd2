/**
 * One assistant turn: find or open the conversation session, retrieve
 * context, ask the LLM with history and context, remember the exchange. Each
 * step is reported as an event as it finishes; a failed step is reported
 * with its error and the turn goes on where it can (no context is fine, no
 * answer is not).
 */
import { UsageError, errorMessage } from '../../shared/errors.js';
import type { LlmMessage, LlmRequest, LlmResponse } from '../llm/index.js';
import type { ConversationMemory } from './conversation-memory.js';
import type { RetrievalIndex } from './retrieval.js';

export interface AssistantDeps {
  memory: ConversationMemory;
  retrieval: RetrievalIndex;
  llm: { complete(request: LlmRequest): Promise<LlmResponse> };
}

export interface TurnInput {
  query: string;
  session_id?: string;
  options?: Record<string, unknown>;
}

export interface TurnEvent {
  event: string;
  data?: unknown;
  error?: string;
}

interface TurnOptions {
  top_k: number;
  history: number;
  model?: string;
  max_tokens?: number;
  system?: string;
  remember: boolean;
}

const OPTION_KEYS = ['top_k', 'history', 'model', 'max_tokens', 'system', 'remember'];

export function parseTurnOptions(options: Record<string, unknown> = {}): TurnOptions {
  const problems: string[] = [];
  for (const key of Object.keys(options))
    if (!OPTION_KEYS.includes(key)) problems.push(`options.${key}: unknown option (known: ${OPTION_KEYS.join(', ')})`);
  const int = (key: string, min: number, max: number, fallback: number) => {
    const v = options[key];
    if (v === undefined) return fallback;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max)
      problems.push(`options.${key}: must be an integer from ${min} to ${max}`);
    return v as number;
  };
  const str = (key: string) => {
    const v = options[key];
    if (v !== undefined && typeof v !== 'string') problems.push(`options.${key}: must be a string`);
    return v as string | undefined;
  };
  const parsed: TurnOptions = {
    top_k: int('top_k', 0, 20, 3),
    history: int('history', 0, 100, 10),
    remember: options.remember !== false,
  };
  const model = str('model');
  const system = str('system');
  if (model !== undefined) parsed.model = model;
  if (system !== undefined) parsed.system = system;
  if (options.max_tokens !== undefined) parsed.max_tokens = int('max_tokens', 1, 100_000, 0);
  if (options.remember !== undefined && typeof options.remember !== 'boolean')
    problems.push('options.remember: must be true or false');
  if (problems.length)
    throw new UsageError(`invalid options: ${problems.join('; ')}`, { code: 'invalid_options', details: problems });
  return parsed;
}

export async function* runAssistantTurn(
  deps: AssistantDeps,
  input: TurnInput,
  signal?: AbortSignal,
): AsyncGenerator<TurnEvent> {
  const options = parseTurnOptions(input.options);
  let sessionId = input.session_id;
  let created = false;
  if (sessionId === undefined) {
    sessionId = deps.memory.createSession({}).id;
    created = true;
  } else {
    try {
      deps.memory.getSession(sessionId);
    } catch {
      deps.memory.createSession({ id: sessionId });
      created = true;
    }
  }
  yield { event: 'session', data: { session_id: sessionId, created } };

  let context: Array<{ id: string; score: number; text: string }> = [];
  if (options.top_k > 0) {
    try {
      context = deps.retrieval.search(input.query, options.top_k).map(({ id, score, text }) => ({ id, score, text }));
      yield { event: 'retrieval', data: { hits: context.map(({ id, score }) => ({ id, score })) } };
    } catch (err) {
      yield { event: 'retrieval', data: null, error: errorMessage(err) };
    }
  }

  const history = options.history > 0 ? deps.memory.messages(sessionId, options.history) : [];
  const messages: LlmMessage[] = [];
  const system = [options.system ?? 'You are a helpful assistant.'];
  if (context.length > 0) system.push(`Context:\n${context.map((c) => `- ${c.text}`).join('\n')}`);
  messages.push({ role: 'system', content: system.join('\n\n') });
  for (const m of history)
    if (m.role === 'user' || m.role === 'assistant') messages.push({ role: m.role, content: m.content });
  messages.push({ role: 'user', content: input.query });

  if (signal?.aborted) return;
  let answer: LlmResponse | undefined;
  try {
    const request: LlmRequest = { messages };
    if (options.model) request.model = options.model;
    if (options.max_tokens) request.maxTokens = options.max_tokens;
    if (signal) request.signal = signal;
    answer = await deps.llm.complete(request);
    yield {
      event: 'answer',
      data: { text: answer.text, provider: answer.provider, model: answer.model, usage: answer.usage },
    };
  } catch (err) {
    if (signal?.aborted) return;
    yield { event: 'answer', data: null, error: errorMessage(err) };
  }

  if (options.remember && answer) {
    deps.memory.addMessage(sessionId, { role: 'user', content: input.query });
    deps.memory.addMessage(sessionId, { role: 'assistant', content: answer.text });
    yield {
      event: 'memory',
      data: { session_id: sessionId, messages: deps.memory.getSession(sessionId).message_count },
    };
  }
}
