/**
 * Vitest global setup: one throwaway PostgreSQL 15 cluster for the whole run
 * (scripts/pg-cluster.mjs), its URL provided to tests as `postgresUrl`. The
 * cluster starts in the background (initdb and the server's start, ~1.5 s, had
 * held up every worker's start); test/helpers/postgres.ts waits until it
 * accepts connections. It fails the run when PostgreSQL cannot start: those
 * tests never skip.
 * ARENA_TEST_POSTGRES_URL reuses a cluster you already run instead.
 *
 * A run whose file filters select no test that uses the cluster (one file of
 * another module, say) does not start it: that saves every such run the few
 * seconds initdb takes on a loaded machine.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import type { TestProject } from 'vitest/node';
// @ts-expect-error plain ESM script without types, shared with the benchmarks
import { launchCluster } from '../../scripts/pg-cluster.mjs';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string;
  }
}

const ROOT = resolve(import.meta.dirname, '../..');

/** test files that use the cluster: they import this folder's postgres helper */
function postgresTestFiles(dir = join(ROOT, 'test')): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return postgresTestFiles(path);
    return /\.test\.tsx?$/.test(entry.name) && readFileSync(path, 'utf8').includes('helpers/postgres.js') ? [path] : [];
  });
}

function isNeeded(project: TestProject): boolean {
  // vitest's CLI file filters (internal, hence the care): unknown or none → every file runs
  const filters = (project.vitest as unknown as { filenamePattern?: unknown }).filenamePattern;
  if (!Array.isArray(filters) || filters.length === 0) return true;
  const files = postgresTestFiles();
  return files.some((file) =>
    filters.some(
      (f) => typeof f !== 'string' || file.includes(f) || relative(ROOT, file).includes(f.replace(/^\.\//, '')),
    ),
  );
}

/**
 * Both projects (unit, e2e) run this setup in the same main process; the
 * first starts the cluster and the last teardown stops it. A global, not a
 * module variable: each project loads this file through its own module runner.
 */
type Shared = { cluster: Promise<{ url: string; ready: Promise<void>; stop(): Promise<void> }>; users: number };
const SHARED = Symbol.for('arena.test.postgres-cluster');
const holder = globalThis as unknown as { [SHARED]?: Shared };

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const given = process.env.ARENA_TEST_POSTGRES_URL;
  if (given) {
    project.provide('postgresUrl', given);
    return async () => undefined;
  }
  if (!isNeeded(project)) {
    project.provide('postgresUrl', '');
    return async () => undefined;
  }
  const shared = (holder[SHARED] ??= { cluster: launchCluster() as Shared['cluster'], users: 0 });
  shared.users += 1;
  const cluster = await shared.cluster;
  project.provide('postgresUrl', cluster.url);
  return async () => {
    shared.users -= 1;
    if (shared.users > 0) return;
    delete holder[SHARED];
    const failed = await cluster.ready.then(
      () => undefined,
      (err: unknown) => err,
    );
    await cluster.stop();
    // the tests that needed it failed waiting for it; this names why
    if (failed) throw failed;
  };
}
