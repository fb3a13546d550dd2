#!/usr/bin/env node
// The whole vitest suite against its CPU floor, in one run: the wall time of `vitest run`, and the
// CPU the whole machine spent meanwhile (/proc/stat, so Chromium, PostgreSQL, pm2 and every spawned
// `node bin/arena.js` count, whoever their parent is). The floor is that CPU spread over every core:
// no schedule of the same work can end sooner. Run it on an otherwise idle machine (Linux only).
// Usage: npm run build && node test/bench/test-suite.mjs [runs=1]
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const runs = Number(process.argv[2] ?? 1);
const cores = availableParallelism();
const AIM_S = 60;

/** busy CPU-seconds of the whole machine since boot: user, nice, system, irq, softirq (USER_HZ 100) */
function machineBusyS() {
  const [user, nice, system, , , irq, softirq] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  return (user + nice + system + irq + softirq) / 100;
}

for (let r = 0; r < runs; r++) {
  const cpu0 = machineBusyS();
  const t0 = performance.now();
  const run = spawnSync(process.execPath, ['node_modules/vitest/vitest.mjs', 'run'], { cwd: root, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', CI: '1' } });
  const wallS = (performance.now() - t0) / 1000;
  const cpuS = machineBusyS() - cpu0;
  const tests = /Tests\s+(.*)/.exec(run.stdout)?.[1]?.trim() ?? '(no summary)';
  const floorS = cpuS / cores;
  console.log(`run ${r + 1}: exit ${run.status}, tests ${tests}`);
  console.log(`  wall ${wallS.toFixed(1)} s; machine CPU ${cpuS.toFixed(1)} s over ${cores} cores, so the floor is ${floorS.toFixed(1)} s`);
  const aim = floorS <= AIM_S ? `the CPU leaves room for the aim, ${AIM_S} s` : `the aim, ${AIM_S} s, needs ${(100 * (1 - (AIM_S * cores) / cpuS)).toFixed(0)}% less CPU`;
  console.log(`  wall / floor ${(wallS / floorS).toFixed(2)}x (cores busy ${((100 * floorS) / wallS).toFixed(0)}% of the run); ${aim}`);
}
