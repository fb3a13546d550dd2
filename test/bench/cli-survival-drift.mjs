#!/usr/bin/env node
// Survival scheduling accuracy at a 100 ms interval on the real embedded target, against a bare
// setTimeout loop on the same absolute schedule (the baseline) measured in the same run.
// The baseline runs in a child process AT THE SAME TIME as the survival run, so both see the same
// machine load (measured one after the other, a busy few seconds on a shared machine decided the ratio).
// Usage: npm run build && node test/bench/cli-survival-drift.mjs [seconds] [repeats]
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { quantileSorted } from 'simple-statistics';
import { createEmbeddedTarget } from '../../dist/targets/embedded/index.js';
import { runSurvivalOnTarget } from '../../dist/arena/survival/index.js';

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
  process.send(await baselineDrift());
  process.exit(0);
}

const fmt = (n) => `${n.toFixed(2)} ms`;
const ratios = [];
for (let r = 0; r < repeats; r++) {
  const child = fork(fileURLToPath(import.meta.url), ['baseline', String(seconds)]);
  const baseDrifts = new Promise((resolve) => child.once('message', resolve));
  const report = await runSurvivalOnTarget(createEmbeddedTarget({ seed: 1 }), { duration: seconds * 1000, interval: intervalMs, seed: 1, cooldown: 200 });
  const base = stats(await baseDrifts);
  const arena = stats(report.timeline.map((t) => t.drift_ms));
  console.log(`run ${r + 1}: interval ${intervalMs} ms, ${ticks} ticks planned, ${report.actions_run} run (none skipped: ${report.actions_run === ticks})`);
  console.log(`  baseline setTimeout loop   p50 ${fmt(base.p50)}  p99 ${fmt(base.p99)}  max ${fmt(base.max)}`);
  console.log(`  survival (embedded target) p50 ${fmt(arena.p50)}  p99 ${fmt(arena.p99)}  max ${fmt(arena.max)}`);
  console.log(`  ratio survival/baseline    p50 ${(arena.p50 / Math.max(base.p50, 0.01)).toFixed(2)}x  p99 ${(arena.p99 / Math.max(base.p99, 0.01)).toFixed(2)}x`);
  ratios.push(arena.p99 / Math.max(base.p99, 0.01));
}
ratios.sort((a, b) => a - b);
console.log(`p99 ratio over ${repeats} runs: median ${ratios[Math.floor(ratios.length / 2)].toFixed(2)}x (${ratios.map((x) => x.toFixed(2)).join(', ')})`);
