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
