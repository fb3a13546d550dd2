import { defineConfig } from 'vitest/config';

/**
 * Tests too long for every `npm test`: minutes of real fleet runs each (the shipped shrink example).
 * `npm run test:slow` builds and runs them; their figures are in docs/benchmarks.md.
 */
export default defineConfig({
  test: {
    include: ['test/slow/**/*.test.ts'],
    pool: 'forks',
    // safety nets sized for a busy 2-core machine, not timing claims
    testTimeout: 3_600_000,
    hookTimeout: 120_000,
  },
});
