export { bootstrap, RootLifecycleError, type ArenaRoot, type RootServices } from './root.js';
export type * from './types.js';
