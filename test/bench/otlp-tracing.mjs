#!/usr/bin/env node
// Two costs of the observability of DESIGN §17, each as a ratio against a baseline measured in the
// same run:
// 1. tracing on against off for a survival run: the CPU of `arena survival` (a fixed duration, so
//    wall time says nothing) with --otlp to an OTLP/HTTP receiver in this process, against the same
//    run without it. Each run is a process of its own; on and off take turns, medians printed.
// 2. one /metrics scrape with 10,000 recorded faults (14 types × 20 targets × 2 outcomes, and 10,000
//    recovery times in the histogram), against a scrape of the same metrics with nothing recorded.
// Usage: npm run build && node test/bench/otlp-tracing.mjs [rounds] [survival seconds]
import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import * as prom from 'prom-client';
import { createArenaMetrics } from '../../dist/protocol/metrics.js';

const rounds = Number(process.argv[2] ?? 5);
const seconds = Number(process.argv[3] ?? 5);
const BIN = fileURLToPath(new URL('../../bin/arena.js', import.meta.url));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const CPU_AT_EXIT =
  "data:text/javascript,process.on('exit',()=>{const c=process.cpuUsage();process.stderr.write('\\nBENCH_CPU '+(c.user+c.system)+'\\n')})";

// an OTLP/HTTP receiver that takes every export
let spans = 0;
const receiver = createServer((req, res) => {
  let bytes = 0;
  req.on('data', (c) => (bytes += c.length));
  req.on('end', () => {
    spans += bytes > 0 ? 1 : 0;
    res.writeHead(200, { 'content-type': 'application/x-protobuf' });
    res.end();
  });
});
await new Promise((r) => receiver.listen(0, '127.0.0.1', r));
const url = `http://127.0.0.1:${receiver.address().port}`;

async function run(traced) {
  // asynchronous, so the receiver in this process answers while the child runs
  return new Promise((resolve) => {
    {
      const args = ['--import', CPU_AT_EXIT, BIN, 'survival', '--duration', `${seconds}s`, '--interval', '100ms'];
      args.push('--seed', '3', '--json', ...(traced ? ['--otlp', url] : []));
      execFile('node', args, { env: { PATH: process.env.PATH, CI: '1', NO_COLOR: '1' } }, (_err, _out, err) => {
        const m = /BENCH_CPU (\d+)/.exec(err);
        resolve(m ? Number(m[1]) / 1000 : Number.NaN);
      });
    }
  });
}

const off = [];
const on = [];
for (let i = 0; i < rounds; i++) {
  if (i % 2 === 0) {
    off.push(await run(false));
    on.push(await run(true));
  } else {
    on.push(await run(true));
    off.push(await run(false));
  }
}
receiver.close();
const offMs = median(off);
const onMs = median(on);
console.log(
  `survival ${seconds}s, interval 100ms: tracing off ${offMs.toFixed(0)} ms CPU, on ${onMs.toFixed(0)} ms CPU (median of ${rounds}): ${(onMs / offMs).toFixed(3)}× (${spans} export requests received)`,
);

// /metrics with 10,000 recorded faults
const TYPES = ['kill_agent', 'kill_leader', 'kill_orchestrator', 'pause_agent', 'resume_agent', 'slow_agent'];
TYPES.push('network_partition', 'tool_timeout', 'memory_corrupt', 'mcp_disconnect', 'llm_failure');
TYPES.push('remove_node', 'remove_edge', 'tool_fault');
function scrapeCpuUs(recorded) {
  const m = createArenaMetrics(prom);
  for (let i = 0; i < recorded; i++) {
    const type = TYPES[i % TYPES.length];
    m.fault(type, `agent-${i % 20}`, i % 7 === 0 ? 'refused' : 'applied');
    m.recovery(type, (i % 600) / 10);
  }
  m.score({ score: 91.5, availability: 97, recovery: 88, consistency: 100 });
  return async () => {
    const c0 = process.cpuUsage();
    const text = await m.text();
    const c = process.cpuUsage(c0);
    return { us: c.user + c.system, bytes: text.length };
  };
}
const empty = scrapeCpuUs(0);
const full = scrapeCpuUs(10_000);
const e = [];
const f = [];
let bytes = 0;
for (let i = 0; i < 200; i++) {
  e.push((await empty()).us);
  const r = await full();
  f.push(r.us);
  bytes = r.bytes;
}
console.log(
  `/metrics scrape: nothing recorded ${median(e)} µs CPU, 10,000 faults recorded ${median(f)} µs CPU (${bytes} bytes; median of 200): ${(median(f) / median(e)).toFixed(2)}×`,
);
