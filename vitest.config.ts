import { defineConfig } from 'vitest/config';

/*
 * Two projects, both in child processes (forks), at most 2 at a time (2-core machines):
 * - unit: test/unit. `isolate: false` reuses a worker's module cache from file to file; importing
 *   src/ afresh for each of ~130 files was the largest single cost of the suite. Unit files keep no
 *   global state between files (timers are restored in afterEach, nothing chdirs or stubs globals).
 *   Forks, not threads: some files look for their children under process.pid.
 * - e2e: test/e2e, isolated as before; they spawn `node bin/arena.js` and wait on real time.
 */
export default defineConfig({
  test: {
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
    maxWorkers: 2,
    // concurrent tests (a file's independent runs that mostly wait on real time) at most 3 at once in a worker
    maxConcurrency: 3,
    // one throwaway PostgreSQL cluster for the PostgreSQL store's tests (fails the run if it cannot start);
    // both projects run this setup, which starts the cluster once and shares it
    globalSetup: ['test/helpers/postgres-global-setup.ts'],
    // ARENA_TEST_CPU=/tmp/cpu.jsonl: each file's CPU, its children's too (test/helpers/cpu-per-file.ts)
    setupFiles: process.env.ARENA_TEST_CPU ? ['test/helpers/cpu-per-file.ts'] : [],
    benchmark: { include: ['test/bench/**/*.bench.ts'] },
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.ts', 'test/unit/**/*.test.tsx'], isolate: false } },
      { extends: true, test: { name: 'e2e', include: ['test/e2e/**/*.test.ts'] } },
    ],
  },
});
