import type { Clock } from '../shared/clock.js';
import {
  createLLMClient,
  createLocalModel,
  createOpenAICompatibleProvider,
  type LLMClient,
  type LLMProvider,
} from '../runtime/llm/index.js';
import { durationMs, type LLMConfig, type LLMProviderConfig } from './config.js';

/** builds the retrying, falling-back LLM client a config describes */
export function buildLLMClient(config: LLMConfig, clock: Clock, env?: Record<string, string | undefined>): LLMClient {
  const primary = buildProvider(config, 'primary', clock, env);
  const fallback = config.fallback ? buildProvider(config.fallback, 'fallback', clock, env) : undefined;
  return createLLMClient({
    primary,
    fallback,
    retries: config.retries,
    backoffMs: durationMs(config.backoff_ms),
    clock,
  });
}

function buildProvider(
  config: LLMProviderConfig,
  role: string,
  clock: Clock,
  env?: Record<string, string | undefined>,
): LLMProvider {
  if ((config.provider ?? 'local') === 'local') {
    return createLocalModel({ name: role === 'primary' ? 'local' : 'local-fallback', model: config.model, clock });
  }
  return createOpenAICompatibleProvider({
    name: role === 'primary' ? 'openai-compatible' : 'openai-compatible-fallback',
    baseUrl: config.base_url!,
    model: config.model!,
    apiKeyEnv: config.api_key_env,
    timeoutMs: durationMs(config.timeout_ms),
    clock,
    env,
  });
}
