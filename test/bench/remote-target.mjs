#!/usr/bin/env node
// Per-fault overhead of a remote target (POST /v1/faults + DELETE over loopback, through
// `arena target serve`'s server) against the same pause + revert on the embedded target, same run.
// Usage: npm run build && node test/bench/remote-target.mjs [faults]
import { createEmbeddedTarget } from '../../dist/targets/embedded/index.js';
import { serveTargetProtocol } from '../../dist/targets/protocol-server.js';
import { createRemoteTarget } from '../../dist/targets/remote/target.js';

const n = Number(process.argv[2] ?? 500);

async function perFault(target) {
  const once = async () => {
    const report = await target.runtime.pauseAgent('agent-2', { durationMs: 60_000 });
    await target.runtime.revertFault(report.fault_id);
  };
  for (let i = 0; i < 50; i++) await once(); // warm up
  const times = [];
  for (let i = 0; i < n; i++) {
    const t = process.hrtime.bigint();
    await once();
    times.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  times.sort((a, b) => a - b);
  return { p50: times[Math.floor(n / 2)], p99: times[Math.floor(n * 0.99)] };
}

const local = createEmbeddedTarget({ seed: 1 });
await local.start();
const embedded = await perFault(local);
await local.stop();

const behind = createEmbeddedTarget({ seed: 1 });
await behind.start();
const served = await serveTargetProtocol(behind, { port: 0 });
const remote = createRemoteTarget({ kind: 'remote', name: 'bench', url: served.url });
await remote.start();
const overLoopback = await perFault(remote);
await remote.stop();
await served.close();
await behind.stop();

const fmt = (ms) => `${(ms * 1000).toFixed(0).padStart(6)} µs`;
console.log(`pause + revert, ${n} faults`);
console.log(`embedded target              p50 ${fmt(embedded.p50)}  p99 ${fmt(embedded.p99)}`);
console.log(
  `remote target (loopback)     p50 ${fmt(overLoopback.p50)}  p99 ${fmt(overLoopback.p99)}  ratio p50 ${(overLoopback.p50 / embedded.p50).toFixed(1)}x`,
);
console.log(`remote overhead per fault    p50 ${fmt(overLoopback.p50 - embedded.p50)} (aim: under 1 ms)`);
