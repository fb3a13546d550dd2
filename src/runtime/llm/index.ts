export {
  LLMError,
  isLLMError,
  type LLMErrorType,
  type LLMMessage,
  type LLMRequest,
  type LLMResponse,
  type LLMProvider,
  type LLMUsage,
  type LLMRole,
} from './types.js';
export { createLocalModel, type LocalModelOptions } from './local.js';
export { createOpenAICompatibleProvider, type OpenAICompatibleOptions } from './openai.js';
export {
  createLLMClient,
  type LLMClient,
  type LLMClientOptions,
  type LLMClientStats,
  type LLMClientConfig,
} from './client.js';
