#!/usr/bin/env node
// CPU time the live ink view costs per second of run, against the same event stream with no
// consumer (baseline) and with the plain line reporter, measured in the same run. Events arrive
// 10× faster than the engine sends snapshots (every 10 ms) to show the throttle at work.
// Usage: npm run build && node test/bench/cli-view-cpu.mjs [seconds]
import { Writable } from 'node:stream';
import { availableParallelism, loadavg } from 'node:os';
import { createPlainReporter } from '../../dist/cli/output/plain-reporter.js';

// the CLI sets this before it loads React (src/cli/output/run-output.ts); a static import here would
// measure React's development build, ~10 % more CPU than a user's run
process.env.NODE_ENV ??= 'production';
const { mountLiveView } = await import(process.env.BENCH_DIST ? `file://${process.env.BENCH_DIST}/cli/view/mount.js` : '../../dist/cli/view/mount.js');

const seconds = Number(process.argv[2] ?? 3);
const agents = ['agent-1', 'agent-2', 'agent-3', 'orchestrator-1', 'orchestrator-2'].map((id, i) => ({
  id, role: i === 0 ? 'leader' : i === 3 ? 'orchestrator' : i === 4 ? 'standby' : 'worker', status: 'running', restarts: 0,
}));

function fakeTty() {
  const out = new Writable({ write(_chunk, _enc, cb) { cb(); } });
  Object.assign(out, { isTTY: true, columns: 120, rows: 40 });
  return out;
}

async function drive(listener) {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  let n = 0;
  listener?.({ type: 'run.started', at_ms: 0, kind: 'survival', name: 'bench', seed: 1 });
  while (performance.now() - t0 < seconds * 1000) {
    const at = performance.now() - t0;
    listener?.({ type: 'snapshot', at_ms: at, agents, faults: [{ id: `f${n % 3}`, kind: 'slow_agent', target: 'agent-2', started_at_ms: at, ends_at_ms: at + 500 }], live: { availability: 99, recovery: 97, consistency: null, score: 98 }, progress: at / (seconds * 1000) });
    if (n % 10 === 0) listener?.({ type: 'action', at_ms: at, label: `#${n}`, result: { success: true, action: { id: String(n), type: 'kill_agent', target_id: 'agent-3', created_at: '' }, duration_ms: 1 } });
    n++;
    await new Promise((r) => setTimeout(r, 10));
  }
  const cpu = process.cpuUsage(cpu0);
  const elapsed = (performance.now() - t0) / 1000;
  return { cpuMsPerSecond: (cpu.user + cpu.system) / 1000 / elapsed, events: n };
}

const base = await drive(undefined);
const plain = await drive(createPlainReporter(fakeTty()));
const view = mountLiveView(fakeTty(), fakeTty());
// one-time costs (yoga's WebAssembly, first React render) are start-up, not per-second cost
view.listener({ type: 'run.started', at_ms: 0, kind: 'survival', name: 'warm-up', seed: 1 });
await new Promise((r) => setTimeout(r, 500));
const live = await drive(view.listener);
await view.close();
console.log(`events: ~${Math.round(base.events / seconds)} snapshots/s plus an action every 100 ms, ${seconds}s each; load average ${loadavg()[0].toFixed(1)} on ${availableParallelism()} cores`);
console.log(`no consumer (baseline)   ${base.cpuMsPerSecond.toFixed(1)} ms CPU per second of run`);
console.log(`plain line reporter      ${plain.cpuMsPerSecond.toFixed(1)} ms CPU/s  ratio ${(plain.cpuMsPerSecond / base.cpuMsPerSecond).toFixed(2)}x`);
console.log(`live ink view            ${live.cpuMsPerSecond.toFixed(1)} ms CPU/s  ratio ${(live.cpuMsPerSecond / base.cpuMsPerSecond).toFixed(2)}x  (view cost ${(live.cpuMsPerSecond - base.cpuMsPerSecond).toFixed(1)} ms/s)`);
