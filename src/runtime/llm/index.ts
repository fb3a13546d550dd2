export {
  LlmError,
  isLlmError,
  type LlmProviderErrorType,
  type LlmMessage,
  type LlmRequest,
  type LlmResponse,
  type LlmProvider,
  type LlmUsage,
  type LlmRole,
} from './types.js';
export { createLocalModel, type LocalModelOptions } from './local.js';
export { createOpenAICompatibleProvider, type OpenAICompatibleOptions } from './openai.js';
export {
  createLlmClient,
  type LlmClient,
  type LlmClientOptions,
  type LlmClientStats,
  type LlmClientConfig,
} from './client.js';
