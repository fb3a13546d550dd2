/**
 * Loaded by every test file but the pm2 fleet's (vitest.config.ts): the worker, and every process
 * it starts from now on, drops to a low CPU priority (nice 10). The fleet compares the scores of two
 * real runs, which CPU contention moves by a few points; at normal priority beside niced
 * neighbours it gets the cores whenever it asks, so it no longer has to run alone at the end.
 */
import { constants, setPriority } from 'node:os';

setPriority(constants.priority.PRIORITY_BELOW_NORMAL);
