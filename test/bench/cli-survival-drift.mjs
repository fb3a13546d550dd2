#!/usr/bin/env node
// Survival scheduling accuracy at a 100 ms interval on the real embedded target, against a bare
// setTimeout loop on the same absolute schedule (the baseline) measured in the same run.
// Usage: npm run build && node test/bench/cli-survival-drift.mjs [seconds]
import { quantileSorted } from 'simple-statistics';
import { createEmbeddedTarget } from '../../dist/targets/embedded/index.js';
import { runSurvivalOnTarget } from '../../dist/arena/survival/index.js';

const seconds = Number(process.argv[2] ?? 10);
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

const keepAlive = setInterval(() => {}, 1000);
const base = stats(await baselineDrift());
const report = await runSurvivalOnTarget(createEmbeddedTarget({ seed: 1 }), { duration: seconds * 1000, interval: intervalMs, seed: 1, cooldown: 200 });
clearInterval(keepAlive);
const arena = stats(report.timeline.map((t) => t.drift_ms));
const fmt = (n) => `${n.toFixed(2)} ms`;
console.log(`interval ${intervalMs} ms, ${ticks} ticks planned, ${report.actions_run} run (none skipped: ${report.actions_run === ticks})`);
console.log(`baseline setTimeout loop   p50 ${fmt(base.p50)}  p99 ${fmt(base.p99)}  max ${fmt(base.max)}`);
console.log(`survival (embedded target) p50 ${fmt(arena.p50)}  p99 ${fmt(arena.p99)}  max ${fmt(arena.max)}`);
console.log(`ratio survival/baseline    p50 ${(arena.p50 / Math.max(base.p50, 0.01)).toFixed(2)}x  p99 ${(arena.p99 / Math.max(base.p99, 0.01)).toFixed(2)}x`);
console.log(`report drift field: p50 ${report.drift.p50_ms} ms, p99 ${report.drift.p99_ms} ms; score ${report.score.score} (${report.score.grade})`);
