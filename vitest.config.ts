import { defineConfig } from 'vitest/config';

/*
 * Projects, all in child processes (forks):
 * - unit: test/unit. `isolate: false` reuses a worker's module cache from file to file; importing
 *   src/ afresh for each of ~130 files was the largest single cost of the suite. Unit files keep no
 *   global state between files (timers are restored in afterEach, nothing chdirs or stubs globals).
 *   Forks, not threads: some files look for their children under process.pid.
 * - e2e: test/e2e, isolated; they spawn `node bin/arena.js` and mostly wait on real time, so three
 *   workers share the 2 cores (two left them about a third idle: 167 s -> 146 s for the suite).
 * - e2e-alone: the pm2 fleet compares the scores of two real runs, which CPU contention moves by a
 *   few points; it runs after the rest (groupOrder 1), on a quiet machine.
 */
const ALONE = ['test/e2e/process-example-fleet.test.ts'];

export default defineConfig({
  test: {
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
    maxWorkers: 3,
    // concurrent tests (a file's independent runs that mostly wait on real time) at most 3 at once in a worker
    maxConcurrency: 3,
    // one throwaway PostgreSQL cluster for the PostgreSQL store's tests (fails the run if it cannot start);
    // every project runs this setup, which starts the cluster once and shares it
    globalSetup: ['test/helpers/postgres-global-setup.ts'],
    // ARENA_TEST_CPU=/tmp/cpu.jsonl: each file's CPU, its children's too (test/helpers/cpu-per-file.ts)
    setupFiles: process.env.ARENA_TEST_CPU ? ['test/helpers/cpu-per-file.ts'] : [],
    benchmark: { include: ['test/bench/**/*.bench.ts'] },
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.ts', 'test/unit/**/*.test.tsx'], isolate: false } },
      { extends: true, test: { name: 'e2e', include: ['test/e2e/**/*.test.ts'], exclude: ALONE } },
      { extends: true, test: { name: 'e2e-alone', include: ALONE, maxWorkers: 1, sequence: { groupOrder: 1 } } },
    ],
  },
});
