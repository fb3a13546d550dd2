export { bootstrap, RootLifecycleError, type ArenaRoot } from './root.js';
export { rootInternals, type RootInternals } from './internals.js';
export type * from './types.js';
export type { DashboardPort, DashboardSnapshot } from './dashboard.js';
