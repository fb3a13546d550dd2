/** The LLM fault proxy (DESIGN §10.2): start it, apply `llm_failure` faults, read its stats. */
export { startLlmProxy, type LlmProxy, type LlmProxyOptions, type LlmApiMode, type LlmFaultStats } from './proxy.js';
export { startLlmControl, type LlmControl, type LlmControlOptions } from './control.js';
export { LLM_ERROR_TYPES, LLM_FAULT_TYPE, parseLlmFault, type LlmErrorType, type LlmFaultSpec, type LlmFaultMatch } from './fault-spec.js';
export type { LlmProxyStats, ClientStats, RetryAfterStats } from './stats.js';
