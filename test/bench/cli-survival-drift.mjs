#!/usr/bin/env node
// Survival scheduling accuracy at a 100 ms interval on the real embedded target, against a bare
// setTimeout loop on the same absolute schedule (the baseline) measured in the same run.
// The baseline runs in a child process AT THE SAME TIME as the survival run, so both see the same
// machine load (measured one after the other, a busy few seconds on a shared machine decided the ratio).
// A second loop runs at the same time beside an embedded target of its own (same seed, started, no
// faults): the embedded target shares the arena's event loop, and its own timers and workload make
// ticks late by a few ms whatever schedules them. Against that loop, what survival itself adds shows.
// Then the same survival run against the same embedded runtime served in a process of its own
// (`arena target serve`, through the Arena Target Protocol), beside a bare loop of its own: what the
// scheduler does when the target does not share its event loop, as with a process or remote target.
// Usage: npm run build && node test/bench/cli-survival-drift.mjs [seconds] [repeats]
import { fork, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { quantileSorted } from 'simple-statistics';
import { createEmbeddedTarget } from '../../dist/targets/embedded/index.js';
import { createRemoteTarget } from '../../dist/targets/remote/target.js';
import { runSurvivalOnTarget } from '../../dist/arena/survival/index.js';
import { printedUrl } from './printed-url.mjs';

const isChild = process.argv[2] === 'baseline';
const seconds = Number(process.argv[isChild ? 3 : 2] ?? 10);
const repeats = Number(process.argv[3] ?? 3);
const intervalMs = 100;
const ticks = Math.round((seconds * 1000) / intervalMs);

async function baselineDrift() {
  const drifts = [];
  const start = performance.now();
  for (let i = 0; i < ticks; i++) {
    const planned = i * intervalMs;
    for (let wait = planned - (performance.now() - start); wait > 0; wait = planned - (performance.now() - start)) {
      await new Promise((r) => setTimeout(r, wait));
    }
    drifts.push(performance.now() - start - planned);
  }
  return drifts;
}

function stats(drifts) {
  const s = [...drifts].sort((a, b) => a - b);
  return { p50: quantileSorted(s, 0.5), p99: quantileSorted(s, 0.99), max: s[s.length - 1] };
}

if (isChild) {
  // `beside-target`: the same loop with an embedded target running in this process
  const target = process.argv[4] === 'beside-target' ? createEmbeddedTarget({ seed: 1 }) : undefined;
  await target?.start();
  const drifts = await baselineDrift();
  await target?.stop();
  process.send(drifts);
  process.exit(0);
}

const fmt = (n) => `${n.toFixed(2)} ms`;
const ratios = [];
const besideRatios = [];
const loop = (...args) => {
  const child = fork(fileURLToPath(import.meta.url), ['baseline', String(seconds), ...args]);
  return new Promise((resolve) => child.once('message', resolve));
};
const ratio = (a, b) => a / Math.max(b, 0.01);
/** `arena target serve` on a free port: the embedded runtime in a process of its own */
async function servedRuntime() {
  const child = spawn(
    process.execPath,
    [fileURLToPath(new URL('../../bin/arena.js', import.meta.url)), 'target', 'serve', '--port', '0', '--seed', '1'],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  );
  const url = await printedUrl(child, /served on (http:\/\/\S+)/);
  return { url, stop: () => new Promise((resolve) => (child.once('exit', resolve), child.kill('SIGINT'))) };
}
const remoteRatios = [];
// every round's ticks together: a p99 of 200 ticks is their third latest, of 600 their sixth
const pooled = { bare: [], beside: [], arena: [], remoteBare: [], remote: [] };
for (let r = 0; r < repeats; r++) {
  const bareDrifts = loop();
  const besideDrifts = loop('beside-target');
  const report = await runSurvivalOnTarget(createEmbeddedTarget({ seed: 1 }), {
    duration: seconds * 1000,
    interval: intervalMs,
    seed: 1,
    cooldown: 200,
  });
  const bareTicks = await bareDrifts;
  const besideTicks = await besideDrifts;
  const arenaTicks = report.timeline.map((t) => t.drift_ms);
  pooled.bare.push(...bareTicks);
  pooled.beside.push(...besideTicks);
  pooled.arena.push(...arenaTicks);
  const base = stats(bareTicks);
  const beside = stats(besideTicks);
  const arena = stats(arenaTicks);
  console.log(
    `run ${r + 1}: interval ${intervalMs} ms, ${ticks} ticks planned, ${report.actions_run} run (none skipped: ${report.actions_run === ticks})`,
  );
  console.log(`  baseline setTimeout loop   p50 ${fmt(base.p50)}  p99 ${fmt(base.p99)}  max ${fmt(base.max)}`);
  console.log(`  the loop beside a target   p50 ${fmt(beside.p50)}  p99 ${fmt(beside.p99)}  max ${fmt(beside.max)}`);
  console.log(`  survival (embedded target) p50 ${fmt(arena.p50)}  p99 ${fmt(arena.p99)}  max ${fmt(arena.max)}`);
  console.log(
    `  ratio survival/baseline    p50 ${ratio(arena.p50, base.p50).toFixed(2)}x  p99 ${ratio(arena.p99, base.p99).toFixed(2)}x; survival/the loop beside a target p99 ${ratio(arena.p99, beside.p99).toFixed(2)}x`,
  );
  ratios.push(ratio(arena.p99, base.p99));
  besideRatios.push(ratio(arena.p99, beside.p99));

  const served = await servedRuntime();
  const remoteBareDrifts = loop();
  const remoteReport = await runSurvivalOnTarget(
    createRemoteTarget({ kind: 'remote', name: 'served', url: served.url }),
    { duration: seconds * 1000, interval: intervalMs, seed: 1, cooldown: 200 },
  );
  await served.stop();
  const remoteBareTicks = await remoteBareDrifts;
  const remoteTicks = remoteReport.timeline.map((t) => t.drift_ms);
  pooled.remoteBare.push(...remoteBareTicks);
  pooled.remote.push(...remoteTicks);
  const remoteBase = stats(remoteBareTicks);
  const remote = stats(remoteTicks);
  console.log(
    `  then, the target in its own process (${remoteReport.actions_run} ticks run, ${remoteReport.actions_succeeded} faults applied):`,
  );
  console.log(
    `  baseline setTimeout loop   p50 ${fmt(remoteBase.p50)}  p99 ${fmt(remoteBase.p99)}  max ${fmt(remoteBase.max)}`,
  );
  console.log(`  survival (served target)   p50 ${fmt(remote.p50)}  p99 ${fmt(remote.p99)}  max ${fmt(remote.max)}`);
  console.log(`  ratio survival/baseline    p99 ${ratio(remote.p99, remoteBase.p99).toFixed(2)}x`);
  remoteRatios.push(ratio(remote.p99, remoteBase.p99));
}
const summary = (xs) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return `median ${sorted[Math.floor(sorted.length / 2)].toFixed(2)}x (${sorted.map((x) => x.toFixed(2)).join(', ')})`;
};
console.log(
  `p99 ratio over ${repeats} runs: against the bare loop ${summary(ratios)}; against the loop beside a target ${summary(besideRatios)}`,
);
console.log(`p99 ratio with the target in its own process, against the bare loop: ${summary(remoteRatios)}`);
const p99 = (xs) => stats(xs).p99;
console.log(
  `pooled over the ${repeats} rounds: embedded ${ratio(p99(pooled.arena), p99(pooled.bare)).toFixed(2)}x the bare loop (p99 ${fmt(p99(pooled.arena))} vs ${fmt(p99(pooled.bare))}), ` +
    `${ratio(p99(pooled.arena), p99(pooled.beside)).toFixed(2)}x the loop beside a target (${fmt(p99(pooled.beside))}); ` +
    `served ${ratio(p99(pooled.remote), p99(pooled.remoteBare)).toFixed(2)}x its bare loop (p99 ${fmt(p99(pooled.remote))} vs ${fmt(p99(pooled.remoteBare))})`,
);
