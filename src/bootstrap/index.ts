export { bootstrap, RootLifecycleError, type ArenaRoot } from './root.js';
export { rootInternals } from './internals.js';
export type * from './types.js';
