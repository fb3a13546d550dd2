import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // 2-core machines: e2e tests spawn processes, keep the pool small
    pool: 'forks',
    maxWorkers: 2,
    benchmark: { include: ['test/bench/**/*.bench.ts'] },
  },
});
