import type { Clock } from '../shared/clock.js';
import {
  createLlmClient,
  createLocalModel,
  createOpenAICompatibleProvider,
  type LlmClient,
  type LlmProvider,
} from '../runtime/llm/index.js';
import { durationMs, type LlmConfig, type LlmProviderConfig } from './config.js';

/** builds the retrying, falling-back LLM client a config describes */
export function buildLlmClient(config: LlmConfig, clock: Clock, env?: Record<string, string | undefined>): LlmClient {
  const primary = buildProvider(config, 'primary', clock, env);
  const fallback = config.fallback ? buildProvider(config.fallback, 'fallback', clock, env) : undefined;
  return createLlmClient({
    primary,
    fallback,
    retries: config.retries,
    backoffMs: durationMs(config.backoff_ms),
    clock,
  });
}

function buildProvider(
  config: LlmProviderConfig,
  role: string,
  clock: Clock,
  env?: Record<string, string | undefined>,
): LlmProvider {
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
