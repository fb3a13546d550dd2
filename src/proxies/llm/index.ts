/** The LLM fault proxy (DESIGN §10.2): start it, apply `llm_failure` faults, read its stats. */
export { startLlmProxy, type LlmProxy, type LlmProxyOptions, type LlmApiMode, type LlmFaultStats } from './proxy.js';
export { startLlmControl, type LlmControl, type LlmControlOptions } from './control.js';
export { LLM_FAULT_TYPE, type LlmFaultSpec, type LlmFaultMatch } from './fault-spec.js';
export type { LlmProxyStats } from './stats.js';
