/**
 * Per-file CPU accounting for finding what makes the suite slow on a shared
 * machine, where wall time mostly measures the neighbours. Loaded only when
 * ARENA_TEST_CPU names an output file (vitest.config.ts):
 *
 *   ARENA_TEST_CPU=/tmp/cpu.jsonl npx vitest run
 *
 * Each line: {file, cpu_ms, children_ms, wall_ms, started_at, handles}. cpu_ms is the worker's own
 * CPU, children_ms the CPU of the processes it spawned and waited for (the
 * `node bin/arena.js` runs of the e2e files); both from /proc/self/stat, so
 * Linux only. started_at (epoch ms) and wall_ms lay the files out on a
 * timeline: which ran beside which, and which ended the run. handles: what the
 * worker still has open after the file's own afterAll hooks (a file that leaks
 * a timer or server shows it here).
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect } from 'vitest';

const TICK_MS = 10; // USER_HZ is 100 on Linux

function ticks(): { own: number; children: number } {
  const stat = readFileSync('/proc/self/stat', 'latin1');
  const f = stat
    .slice(stat.lastIndexOf(')') + 2)
    .split(' ')
    .map(Number);
  // fields 14-17 of proc(5), counted from the state field (3) here
  return { own: (f[11]! + f[12]!) * TICK_MS, children: (f[13]! + f[14]!) * TICK_MS };
}

let start = ticks();
let startedAt = performance.now();
let file = '';

beforeAll(() => {
  start = ticks();
  startedAt = performance.now();
  file = expect.getState().testPath ?? '';
});

afterAll(() => {
  const end = ticks();
  // what the file left running: with `isolate: false` it keeps running in the worker for the next files
  const handles = process.getActiveResourcesInfo().filter((r) => r !== 'TTYWrap');
  const line = {
    file,
    cpu_ms: end.own - start.own,
    children_ms: end.children - start.children,
    wall_ms: Math.round(performance.now() - startedAt),
    started_at: Math.round(performance.timeOrigin + startedAt),
    handles,
  };
  appendFileSync(process.env.ARENA_TEST_CPU!, `${JSON.stringify(line)}\n`);
});
