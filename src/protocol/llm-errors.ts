/**
 * How an LLM call can be made to fail (DESIGN §3, §10.2): one vocabulary for every layer. The arena's
 * `llm_failure` action, scenarios, the HTTP API and their JSON schemas take LLM_ERROR_TYPES, which
 * every target applies; the LLM fault proxy, which sits on the wire, can also break or stall a
 * streamed answer (LLM_STREAM_ERROR_TYPES), so it takes LLM_PROXY_ERROR_TYPES.
 */
export const LLM_ERROR_TYPES = ['rate_limit', 'overloaded', 'timeout', 'server_error'] as const;
export type LLMErrorType = (typeof LLM_ERROR_TYPES)[number];

/** what only a proxy on the stream can do: end a streamed answer midway, or stop it while it stays open */
export const LLM_STREAM_ERROR_TYPES = ['stream_error', 'stream_stall'] as const;
type LLMStreamErrorType = (typeof LLM_STREAM_ERROR_TYPES)[number];

export const LLM_PROXY_ERROR_TYPES = [...LLM_ERROR_TYPES, ...LLM_STREAM_ERROR_TYPES] as const;
export type LLMProxyErrorType = (typeof LLM_PROXY_ERROR_TYPES)[number];
