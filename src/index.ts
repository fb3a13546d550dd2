/** Public API of chaos-arena. Only re-exports; everything else is internal. */
export * from './shared/errors.js';
export { parseDuration, formatDuration } from './shared/duration.js';
export { systemClock, ManualClock, type Clock, type TimerHandle } from './shared/clock.js';
export { createRandom, type Random } from './shared/random.js';
export * from './arena/action.js';
export type * from './arena/providers.js';
export * from './runtime/memory/index.js';
export * from './runtime/tools/index.js';
export * from './workflow/index.js';
export { createAction, parseAction, actionProblems, ACTION_PARAMETERS, type CreateActionOptions, type ActionProblem } from './arena/actions.js';
export { Injector, DEFAULT_FAULT_DURATION_MS, type SlowAgentOptions, type InjectionReport } from './arena/injector.js';
export { MetricsCollector, type MetricsSnapshot, type TypeMetrics } from './arena/metrics.js';
export { ANY_VERSION, type EventStore, type StoredEvent, type NewEvent, type EventFilter, type SubscribeOptions } from './arena/event-store.js';
export { MemoryEventStore, type MemoryEventStoreOptions } from './events/memory.js';
export type { FlightBridge, EvolutionBridge, EvidenceStore, Evidence } from './arena/bridges.js';
export { ArenaService, ARENA_STREAM, DEFAULT_HISTORY_LIMIT, type ArenaServiceOptions, type ArenaStats, type ArenaEvent, type ArenaEventType } from './arena/service.js';
export { LLMError, isLLMError, errorTypeForStatus, createLocalModel, createOpenAICompatibleProvider, createLLMClient, type LLMErrorType as LLMProviderErrorType, type LLMMessage, type LLMRequest, type LLMResponse, type LLMProvider, type LLMUsage, type LLMRole, type LocalModelOptions, type OpenAICompatibleOptions, type LLMClient, type LLMClientOptions, type LLMClientStats, type LLMClientConfig } from './runtime/llm/index.js';
export * from './runtime/mcp/index.js';
