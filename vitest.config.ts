import { existsSync } from 'node:fs';
import { availableParallelism, cpus } from 'node:os';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/*
 * Projects, all in child processes (forks; some files look for their children under process.pid):
 * - unit: test/unit. `isolate: false` reuses a worker's module cache from file to file (importing src/
 *   afresh per file was the largest single cost). Unit files keep no global state between files.
 * - e2e: test/e2e; they spawn `node bin/arena.js` and mostly wait on real time. Not isolated either:
 *   the e2e files set no env, timers, mocks or cwd, and stop what they start in their own hooks.
 * - e2e-fleet: the pm2 fleet, the longest file, started first so it does not end the run alone, at a
 *   higher CPU priority where it may (test/helpers/fleet-priority.mjs).
 *
 * The suite must pass on a busy shared runner. Every worker runs at normal priority (a niced suite
 * beside two busy loops got a tenth of the CPU and timed out), the workers are sized to the CPU that is
 * idle when the run starts (freeCpus below), and time limits are safety nets, not claims.
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

/** idle CPUs over a short sample: a busy machine gets fewer workers, so each has a core's share to run on */
async function freeCpus(sampleMs = 400): Promise<number> {
  const idle = () => cpus().reduce((sum, cpu) => sum + cpu.times.idle, 0);
  const total = () => cpus().reduce((sum, cpu) => sum + Object.values(cpu.times).reduce((a, b) => a + b, 0), 0);
  const [idle0, total0] = [idle(), total()];
  await new Promise((resolve) => setTimeout(resolve, sampleMs));
  const share = (idle() - idle0) / Math.max(1, total() - total0);
  return share * availableParallelism();
}

/**
 * e2e files mostly wait on real time, so 3.5 workers per idle core keep the cores busy (seven on a quiet
 * 2-core machine); two busy loops leave about none, and the run goes on with two workers.
 * ARENA_TEST_WORKERS sets the number.
 */
async function workerCount(): Promise<number> {
  const given = Number(process.env.ARENA_TEST_WORKERS);
  if (Number.isInteger(given) && given > 0) return given;
  const count = Math.max(2, Math.min(7, Math.round((await freeCpus()) * 3.5)));
  // vitest evaluates this file again for each project, and every project must get the same number
  process.env.ARENA_TEST_WORKERS = String(count);
  return count;
}

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

const maxWorkers = await workerCount();

export default defineConfig({
  test: {
    // safety nets for a test that hangs, sized for a busy 2-core runner
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers,
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
        },
      },
      {
        extends: true,
        test: { name: 'e2e', include: ['test/e2e/**/*.test.ts'], exclude: FLEET, isolate: false },
      },
      {
        extends: true,
        test: { name: 'e2e-fleet', include: FLEET, execArgv: ['--import', './test/helpers/fleet-priority.mjs'] },
      },
    ],
  },
});
