import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // 2-core machines: e2e tests spawn processes, keep the pool small
    pool: 'forks',
    maxWorkers: 2,
    // one throwaway PostgreSQL cluster for the PostgreSQL store's tests (fails the run if it cannot start)
    globalSetup: ['test/helpers/postgres-global-setup.ts'],
    benchmark: { include: ['test/bench/**/*.bench.ts'] },
  },
});
