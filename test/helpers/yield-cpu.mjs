/**
 * Loaded with `node --import` into every test worker but the pm2 fleet's (vitest.config.ts), before
 * vitest itself: the worker, and every process it starts, runs at a low CPU priority (nice 10). The
 * fleet compares the scores of two real runs, which CPU contention moves by a few points; at normal
 * priority beside niced neighbours it gets the cores whenever it asks, so it need not run alone at the
 * end. Loaded as a setup file instead, each worker loaded vitest at normal priority first: ~2 CPU-s
 * beside the fleet in its first 38 s.
 */
import { constants, setPriority } from 'node:os';

setPriority(constants.priority.PRIORITY_BELOW_NORMAL);
