/**
 * Vitest global setup: one throwaway PostgreSQL 15 cluster for the whole run
 * (scripts/pg-cluster.mjs), its URL provided to tests as `postgresUrl`. It
 * fails the run when PostgreSQL cannot start: those tests never skip.
 * ARENA_TEST_POSTGRES_URL reuses a cluster you already run instead.
 */
import type { TestProject } from 'vitest/node';
// @ts-expect-error plain ESM script without types, shared with the benchmarks
import { startCluster } from '../../scripts/pg-cluster.mjs';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const given = process.env.ARENA_TEST_POSTGRES_URL;
  if (given) {
    project.provide('postgresUrl', given);
    return async () => undefined;
  }
  const cluster = (await startCluster()) as { url: string; stop(): Promise<void> };
  project.provide('postgresUrl', cluster.url);
  return () => cluster.stop();
}
