#!/usr/bin/env node
// What a process target pays to find an agent's pid, which it does for every agent several times a
// second (the pid tracker, each status look, each fault). Measured with a listener child and as
// many sockets in TIME_WAIT as a busy host (or a fleet under a 20/s workload) keeps, all in one run:
// - baseline: reading /proc/net/tcp and tcp6 whole, which `pid: { port }` used to do each time;
// - listeningInodes: the read that stops where the kernel's list of listeners ends;
// - resolvePid by port, first look (the listeners, then every process's open sockets);
// - resolvePid by port, again while the same process holds its socket (nothing read from /proc/net);
// - resolvePid by match (every process's command line) against the baseline of the same lookup
//   reading each process's stat as well, as it used to.
// Usage: npm run build && node test/bench/process-pid.mjs [time-waits=6000] [calls=200]
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { resolvePid } from '../../dist/targets/process/pid.js';
import { listeningInodes, processTable } from '../../dist/targets/process/proc.js';
import { readCmdline } from '../../dist/shared/proc.js';

const waits = Number(process.argv[2] ?? 6000);
const calls = Number(process.argv[3] ?? 200);

const tag = `bench-pid-${process.pid}`;
const child = spawn(
  process.execPath,
  [
    '-e',
    `const s = require('node:net').createServer(); s.listen(0, '127.0.0.1', () => console.log(s.address().port)); setInterval(() => {}, 1000); // ${tag}`,
  ],
  { stdio: ['ignore', 'pipe', 'inherit'] },
);
process.on('exit', () => child.kill('SIGKILL'));
const port = Number(String((await once(child.stdout, 'data'))[0]).trim());

// closed by our side first, each connection leaves a socket in TIME_WAIT for a minute
const server = createServer((s) => s.on('error', () => {}).resume()).listen(0, '127.0.0.1');
await once(server, 'listening');
for (let i = 0; i < waits; i += 100) {
  await Promise.all(
    Array.from({ length: Math.min(100, waits - i) }, async () => {
      const s = connect(server.address().port, '127.0.0.1');
      await once(s, 'connect');
      s.end();
      await once(s, 'close');
    }),
  );
}
server.close();
const sockets = readFileSync('/proc/net/tcp', 'latin1').split('\n').length - 2;

function perCall(fn) {
  for (let i = 0; i < 5; i++) fn();
  const t = process.hrtime.bigint();
  for (let i = 0; i < calls; i++) fn();
  return Number(process.hrtime.bigint() - t) / 1e3 / calls;
}

const ctx = { agentId: 'bench', baseDir: process.cwd() };
const baseline = perCall(() => {
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) readFileSync(file, 'latin1').split('\n');
});
const prefix = perCall(() => listeningInodes(port));
const first = perCall(() => resolvePid({ port }, ctx));
const memo = {};
const lastPid = resolvePid({ port }, { ...ctx, sockets: memo });
const again = perCall(() => resolvePid({ port }, { ...ctx, sockets: memo, lastPid }));
const matchBefore = perCall(() => {
  for (const pid of processTable().keys()) readCmdline(pid)?.includes(tag);
});
const match = perCall(() => resolvePid({ match: tag }, ctx));

const row = (name, us, base) =>
  console.log(`${name.padEnd(44)} ${us.toFixed(0).padStart(7)} µs/call${base ? `  ${(us / base).toFixed(3)}x` : ''}`);
console.log(`/proc/net/tcp: ${sockets} sockets (${waits} made TIME_WAIT by this run); ${calls} calls each`);
row('baseline: /proc/net/tcp + tcp6 read whole', baseline);
row('listeningInodes (listeners only)', prefix, baseline);
row('resolvePid by port, first look', first, baseline);
row('resolvePid by port, same process', again, baseline);
row('baseline: every stat + command line', matchBefore);
row('resolvePid by match', match, matchBefore);
process.exit(0);
