/**
 * A provider for any server that speaks the OpenAI chat-completions API
 * (OpenAI, vLLM, llama.cpp, Ollama's /v1, LM Studio...). HTTP failures are
 * mapped to LlmError types so the client can decide to retry or fall back.
 */
import type { Clock } from '../../shared/clock.js';
import { systemClock } from '../../shared/clock.js';
import { UsageError } from '../../shared/errors.js';
import { validateMessages } from './local.js';
import { errorTypeForStatus, LlmError, type LlmProvider, type LlmRequest, type LlmResponse } from './types.js';

export interface OpenAICompatibleOptions {
  /** e.g. http://127.0.0.1:8080/v1 — `/chat/completions` is appended */
  baseUrl: string;
  model: string;
  apiKey?: string;
  /** name of the environment variable holding the API key */
  apiKeyEnv?: string;
  /** per-request deadline; default 30000 */
  timeoutMs?: number;
  name?: string;
  clock?: Clock;
  /** where `apiKeyEnv` is read; default process.env */
  env?: Record<string, string | undefined>;
}

export function createOpenAICompatibleProvider(options: OpenAICompatibleOptions): LlmProvider {
  const name = options.name ?? 'openai-compatible';
  const clock = options.clock ?? systemClock;
  const timeoutMs = options.timeoutMs ?? 30_000;
  let url: URL;
  try {
    url = new URL(`${options.baseUrl.replace(/\/+$/, '')}/chat/completions`);
  } catch {
    throw new UsageError(`LLM provider "${name}": baseUrl ${JSON.stringify(options.baseUrl)} is not a valid URL`, {
      code: 'invalid_llm_config',
    });
  }
  if (!options.model) throw new UsageError(`LLM provider "${name}": model is required`, { code: 'invalid_llm_config' });
  if (!(timeoutMs > 0))
    throw new UsageError(`LLM provider "${name}": timeoutMs must be positive, got ${timeoutMs}`, {
      code: 'invalid_llm_config',
    });
  let apiKey = options.apiKey;
  if (apiKey === undefined && options.apiKeyEnv) {
    apiKey = (options.env ?? process.env)[options.apiKeyEnv];
    if (!apiKey)
      throw new UsageError(`LLM provider "${name}": environment variable ${options.apiKeyEnv} (apiKeyEnv) is not set`, {
        code: 'missing_api_key',
      });
  }

  return {
    name,
    async complete(request: LlmRequest): Promise<LlmResponse> {
      validateMessages(request.messages);
      const model = request.model ?? options.model;
      const controller = new AbortController();
      let timedOut = false;
      const timer = clock.setTimer(timeoutMs, () => {
        timedOut = true;
        controller.abort();
      });
      const onCallerAbort = () => controller.abort(request.signal!.reason);
      if (request.signal?.aborted) onCallerAbort();
      request.signal?.addEventListener('abort', onCallerAbort, { once: true });
      const fail = (
        type: ConstructorParameters<typeof LlmError>[0],
        message: string,
        extra: { status?: number; retryAfterMs?: number; cause?: unknown } = {},
      ) => new LlmError(type, `${name}: ${message}`, { provider: name, ...extra });
      try {
        const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
        if (apiKey) headers.authorization = `Bearer ${apiKey}`;
        const body: Record<string, unknown> = {
          model,
          messages: request.messages.map(({ role, content }) => ({ role, content })),
        };
        if (request.maxTokens !== undefined) body.max_tokens = request.maxTokens;
        const response = await fetch(url, {
          method: 'POST',
          headers,
          body: JSON.stringify(body),
          signal: controller.signal,
        });
        const text = await response.text();
        if (!response.ok) {
          const type = errorTypeForStatus(response.status);
          throw fail(type, `HTTP ${response.status} ${summarise(text)}`, {
            status: response.status,
            retryAfterMs: retryAfter(response.headers.get('retry-after')),
          });
        }
        return parseCompletion(text, name, model, fail);
      } catch (error) {
        if (error instanceof LlmError) throw error;
        if (timedOut) throw fail('timeout', `no answer within ${timeoutMs}ms`, { cause: error });
        if (request.signal?.aborted) throw request.signal.reason;
        throw fail(
          'network',
          `request to ${url.origin} failed: ${(error as Error).cause ?? (error as Error).message}`,
          { cause: error },
        );
      } finally {
        timer.cancel();
        request.signal?.removeEventListener('abort', onCallerAbort);
      }
    },
  };
}

type Fail = (type: 'invalid_response', message: string) => LlmError;

function parseCompletion(text: string, provider: string, model: string, fail: Fail): LlmResponse {
  // biome-ignore lint/suspicious/noExplicitAny: an untrusted response, every field is checked below before use
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    throw fail('invalid_response', `response is not JSON: ${summarise(text)}`);
  }
  const content = json?.choices?.[0]?.message?.content;
  if (typeof content !== 'string') throw fail('invalid_response', 'response has no choices[0].message.content');
  const promptTokens = Number(json.usage?.prompt_tokens ?? 0);
  const completionTokens = Number(json.usage?.completion_tokens ?? 0);
  return {
    text: content,
    provider,
    model: typeof json.model === 'string' ? json.model : model,
    usage: {
      promptTokens,
      completionTokens,
      totalTokens: Number(json.usage?.total_tokens ?? promptTokens + completionTokens),
    },
  };
}

function summarise(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > 200 ? `${oneLine.slice(0, 200)}…` : oneLine;
}

function retryAfter(header: string | null): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : undefined;
}
