#!/usr/bin/env node
// CPU time the live ink view costs per second of run, against the same event stream with no
// consumer (baseline) and with the plain line reporter, measured in the same run. Events arrive
// 10× faster than the engine sends snapshots (every 10 ms) to show the throttle at work.
// Each turn is a process of its own (run with V8's --single-threaded, so its GC is counted in it),
// which drives the stream untimed for a second, then measures; the three take turns for several
// rounds in a turning order and the medians are printed. One pass of each in one process, as
// before, moved the view's cost between 12 and 31 ms/s from run to run on this VM: what one
// variant left behind (garbage, timers) was paid in the next one's time.
// Usage: npm run build && node test/bench/cli-view-cpu.mjs [seconds per turn] [rounds]
import { execFileSync } from 'node:child_process';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { availableParallelism, loadavg } from 'node:os';
import chalk from 'chalk';
import { createPlainReporter } from '../../dist/cli/output/plain-reporter.js';

// the CLI sets this before it loads React (src/cli/output/run-output.ts); a static import here would
// measure React's development build, ~10 % more CPU than a user's run
process.env.NODE_ENV ??= 'production';
const { mountLiveView } = await import(
  process.env.BENCH_DIST ? `file://${process.env.BENCH_DIST}/cli/view/mount.js` : '../../dist/cli/view/mount.js'
);

const seconds = Number(process.argv[process.argv[2] === '--turn' ? 4 : 2] ?? 2);
const rounds = Number(process.argv[3] ?? 5);
const agents = ['agent-1', 'agent-2', 'agent-3', 'orchestrator-1', 'orchestrator-2'].map((id, i) => ({
  id,
  role: i === 0 ? 'leader' : i === 3 ? 'orchestrator' : i === 4 ? 'standby' : 'worker',
  status: 'running',
  restarts: 0,
}));

function fakeTty() {
  const out = new Writable({
    write(_chunk, _enc, cb) {
      cb();
    },
  });
  Object.assign(out, { isTTY: true, columns: 120, rows: 40 });
  return out;
}

async function drive(listener, seconds) {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  let n = 0;
  listener?.({ type: 'run.started', at_ms: 0, kind: 'survival', name: 'bench', seed: 1 });
  while (performance.now() - t0 < seconds * 1000) {
    const at = performance.now() - t0;
    listener?.({
      type: 'snapshot',
      at_ms: at,
      agents,
      faults: [{ id: `f${n % 3}`, kind: 'slow_agent', target: 'agent-2', started_at_ms: at, ends_at_ms: at + 500 }],
      live: { availability: 99, recovery: 97, consistency: null, score: 98 },
      progress: at / (seconds * 1000),
    });
    if (n % 10 === 0)
      listener?.({
        type: 'action',
        at_ms: at,
        label: `#${n}`,
        result: {
          success: true,
          action: { id: String(n), type: 'kill_agent', target_id: 'agent-3', created_at: '' },
          duration_ms: 1,
        },
      });
    n++;
    await new Promise((r) => setTimeout(r, 10));
  }
  const cpu = process.cpuUsage(cpu0);
  const elapsed = (performance.now() - t0) / 1000;
  return { cpuMsPerSecond: (cpu.user + cpu.system) / 1000 / elapsed, events: n };
}

/** one turn of a variant, in this process: a second untimed (JIT, first renders, yoga's WebAssembly), then `seconds` measured */
async function turn(variant) {
  const listener =
    variant === 'base'
      ? undefined
      : variant === 'plain'
        ? createPlainReporter(fakeTty())
        : mountLiveView(fakeTty(), fakeTty(), chalk.level).listener;
  await drive(listener, 1);
  return drive(listener, seconds);
}

const VARIANTS = ['base', 'plain', 'live'];
if (process.argv[2] === '--turn') {
  process.stdout.write(`${JSON.stringify(await turn(process.argv[3]))}\n`);
  process.exit(0);
}
const figures = { base: [], plain: [], live: [], cost: [] };
let events = 0;
for (let r = 0; r < rounds; r++) {
  const round = {};
  for (let k = 0; k < VARIANTS.length; k++) {
    const v = VARIANTS[(r + k) % VARIANTS.length];
    const out = execFileSync(
      process.execPath,
      ['--single-threaded', fileURLToPath(import.meta.url), '--turn', v, String(seconds)],
      { encoding: 'utf8', env: process.env },
    );
    round[v] = JSON.parse(out);
  }
  events = round.base.events;
  for (const v of VARIANTS) figures[v].push(round[v].cpuMsPerSecond);
  figures.cost.push(round.live.cpuMsPerSecond - round.base.cpuMsPerSecond);
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const [base, plain, live, cost] = [
  median(figures.base),
  median(figures.plain),
  median(figures.live),
  median(figures.cost),
];
console.log(
  `events: ~${Math.round(events / seconds)} snapshots/s plus an action every 100 ms; ${rounds} rounds of ${seconds}s per variant, each in a process of its own; medians; load average ${loadavg()[0].toFixed(1)} on ${availableParallelism()} cores`,
);
console.log(`no consumer (baseline)   ${base.toFixed(1)} ms CPU per second of run`);
console.log(`plain line reporter      ${plain.toFixed(1)} ms CPU/s  ratio ${(plain / base).toFixed(2)}x`);
console.log(
  `live ink view            ${live.toFixed(1)} ms CPU/s  ratio ${(live / base).toFixed(2)}x  (view cost ${cost.toFixed(1)} ms/s, the median of each round's live − baseline; rounds ${figures.cost.map((c) => c.toFixed(0)).join(' ')})`,
);
