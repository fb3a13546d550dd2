import { existsSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/*
 * Projects, all in child processes (forks):
 * - unit: test/unit. `isolate: false` reuses a worker's module cache from file to file; importing
 *   src/ afresh for each of ~130 files was the largest single cost of the suite. Unit files keep no
 *   global state between files (timers are restored in afterEach, nothing chdirs or stubs globals).
 *   Forks, not threads: some files look for their children under process.pid.
 * - e2e: test/e2e; they spawn `node bin/arena.js` and mostly wait on real time, so seven workers share
 *   the 2 cores (three left a third of the CPU idle while e2e files ran: 130 s -> 120 s with four;
 *   once the suite's CPU fell from ~164 to ~131 CPU-s, four left a quarter idle: 85-87 s -> 75-81 s
 *   with five; five left 15-17% idle: 73-75 s -> 69-71 s with six, cores 91-93% busy; later six
 *   left 8-10% idle: 61.9-63.0 s -> 59.8-60.4 s with seven). Not isolated
 *   either: a worker's start and its import of vitest, execa and the helpers was paid per file,
 *   65.3-67.0 s -> 59.9-61.0 s in runs interleaved with the isolated config. The e2e files set no
 *   env, timers, mocks or cwd, and stop what they start in their own hooks (ARENA_TEST_CPU lists what
 *   a file leaves open). Tried once before, two regress tests that compare real-time runs failed in
 *   two runs of four; regress-workers now compares only what real time cannot move, and fourteen
 *   whole-suite runs passed every e2e test but the fleet's once (now run side by side).
 * - e2e-fleet: the pm2 fleet compares the scores of two real runs (side by side), which CPU
 *   contention moves by a few points. It used to run alone after the rest (30 s with the cores
 *   mostly idle). Now every other worker runs at a low CPU priority from its first line
 *   (test/helpers/yield-cpu.mjs, loaded with --import), so the fleet, at normal priority, gets the
 *   cores when it asks while the rest of the suite goes on beside it. Chromium would raise itself
 *   above it: test/helpers/chromium.ts.
 */
// Node 20 reads the NODE_EXTRA_CA_CERTS bundle at every start, ~35 ms of CPU for Debian's 140-odd
// certificates, and some 160 of the suite's node processes (workers, fixtures, servers) inherited it
// from this one on machines that set it. No test makes a TLS connection, so they go without it.
delete process.env.NODE_EXTRA_CA_CERTS;

const FLEET = ['test/e2e/process-example-fleet.test.ts'];
const ROOT = fileURLToPath(new URL('.', import.meta.url));
/**
 * Unit files that take seconds, waiting on real time or type-checking. Without vitest's results cache
 * (a fresh clone, CI) files start largest first, and these began last and ended the run on their own:
 * the cores were ~0.35 busy over its last 5 s. They go first in their project when the cache cannot
 * order them by duration: 61.3, 64.9, 65.8 s -> 58.6, 59.2, 63.8 s, interleaved. ARENA_TEST_CPU's
 * started_at and wall_ms show which files end a run.
 */
const LONG_FIRST = new Set([
  'test/unit/fault-tables.test.ts',
  'test/unit/arena/regression/sequential-simulation.test.ts',
  'test/unit/arena/scenario/shipped.test.ts',
  'test/unit/arena/scenario/shipped-recovery.test.ts',
  'test/unit/evolution/ga.test.ts',
  'test/unit/targets/scenario-score.test.ts',
  'test/unit/proxies/mcp/http-proxy.test.ts',
  'test/unit/runtime/mcp/stdio.test.ts',
  'test/unit/events/postgres-processes.test.ts',
  'test/unit/events/run-queue.test.ts',
]);
for (const file of LONG_FIRST)
  if (!existsSync(new URL(file, import.meta.url)))
    throw new Error(`vitest.config.ts: LONG_FIRST names ${file}, which does not exist`);
const YIELD = ['--import', new URL('test/helpers/yield-cpu.mjs', import.meta.url).href];

/**
 * vitest runs the projects' files one project after another, by name (e2e, e2e-fleet, unit), so the
 * fleet's 30 s began ~43 s into the run and ended it. It goes first; the rest keeps vitest's order
 * (72-74 s instead of 78-79). Spreading the unit files among the e2e files was slower (78-79 s):
 * the e2e files that run in real time took longer beside CPU-bound unit files.
 */
class FleetFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const isFleet = (f: TestSpecification) => f.project.name === 'e2e-fleet';
    const rest = sorted.filter((f) => !isFleet(f));
    const path = (f: TestSpecification) => relative(ROOT, f.moduleId);
    const knownLong = (f: TestSpecification) =>
      LONG_FIRST.has(path(f)) && !this.ctx.cache.getFileTestResults(`${f.project.name}:${path(f)}`);
    // a stable sort: within each project the known long files go first, the rest keep vitest's order
    const rank = (f: TestSpecification) => (knownLong(f) ? 0 : 1);
    const projects = [...new Set(rest.map((f) => f.project.name))];
    return [
      ...sorted.filter(isFleet),
      ...projects.flatMap((name) => rest.filter((f) => f.project.name === name).sort((a, b) => rank(a) - rank(b))),
    ];
  }
}

export default defineConfig({
  test: {
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
    maxWorkers: 7,
    // concurrent tests (a file's independent runs that mostly wait on real time) at most 3 at once in a worker
    maxConcurrency: 3,
    sequence: { sequencer: FleetFirst },
    // one throwaway PostgreSQL cluster for the PostgreSQL store's tests (fails the run if it cannot start);
    // every project runs this setup, which starts the cluster once and shares it
    globalSetup: ['test/helpers/postgres-global-setup.ts'],
    // ARENA_TEST_CPU=/tmp/cpu.jsonl: each file's CPU, its children's too (test/helpers/cpu-per-file.ts)
    setupFiles: process.env.ARENA_TEST_CPU ? ['test/helpers/cpu-per-file.ts'] : [],
    benchmark: { include: ['test/bench/**/*.bench.ts'] },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts', 'test/unit/**/*.test.tsx'],
          isolate: false,
          execArgv: YIELD,
        },
      },
      {
        extends: true,
        test: { name: 'e2e', include: ['test/e2e/**/*.test.ts'], exclude: FLEET, isolate: false, execArgv: YIELD },
      },
      { extends: true, test: { name: 'e2e-fleet', include: FLEET } },
    ],
  },
});
