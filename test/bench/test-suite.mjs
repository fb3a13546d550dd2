#!/usr/bin/env node
// The whole vitest suite against its CPU floor, in one run: the wall time of `vitest run`, and the
// CPU the whole machine spent meanwhile (/proc/stat, so Chromium, PostgreSQL, pm2 and every spawned
// `node bin/arena.js` count, whoever their parent is). The floor is that CPU spread over every core:
// no schedule of the same work can end sooner. Run it on an otherwise idle machine (Linux only).
// With --by-process it also samples /proc every 100 ms and prints where that CPU went: vitest's
// workers, the arena CLI processes the tests start (by command), Chromium, PostgreSQL, pm2 and the
// example fleet, fixtures. A process that lives less than a sample is missed (its CPU stays in the
// machine total); the sampler's own CPU (~1–2 CPU-s) is counted, and shown.
// Usage: npm run build && node test/bench/test-suite.mjs [runs=1] [--by-process]
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const args = process.argv.slice(2);
const byProcess = args.includes('--by-process');
const runs = Number(args.find((a) => /^\d+$/.test(a)) ?? 1);
const cores = availableParallelism();
const AIM_S = 60;

/** busy CPU-seconds of the whole machine since boot: user, nice, system, irq, softirq (USER_HZ 100) */
function machineBusyS() {
  const [user, nice, system, , , irq, softirq] = readFileSync('/proc/stat', 'utf8')
    .split('\n')[0]
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  return (user + nice + system + irq + softirq) / 100;
}

/** kinds of process, first match wins, by command line */
const KINDS = [
  ['vitest workers', /vitest\/(dist\/workers|suppress-warnings)/],
  ['vitest main process', /vitest/],
  ['arena CLI', /bin\/arena\.js/],
  ['Chromium', /chromium|chrome_crashpad/],
  ['PostgreSQL', /^postgres|\/postgresql\//],
  ['pm2 and the example fleet', /pm2|fleet-worker|ProcessContainer/],
  ['test fixtures', /test\/fixtures\/|supervisor\.mjs/],
  ['MCP servers (server-everything)', /server-everything/],
  ['examples, README snippets', /examples\/|readme-example/],
  ['tsc, npm, esbuild', /typescript\/bin\/tsc|npm|esbuild/],
];

/** CPU-seconds per process from /proc: one entry per pid and start time, with the kind and, for the arena CLI, its command */
function startSampler() {
  const seen = new Map();
  const sample = (first) => {
    for (const pid of readdirSync('/proc')) {
      if (!/^\d+$/.test(pid)) continue;
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
        const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        const cpu = (Number(f[11]) + Number(f[12])) / 100; // utime + stime, USER_HZ 100
        const key = `${pid}:${f[19]}`;
        let e = seen.get(key);
        if (!e) {
          const cmd = readFileSync(`/proc/${pid}/cmdline`, 'latin1').replaceAll('\0', ' ').trim();
          // a process that was there before the run counts from now; one started during it, from its start
          e = { cmd, self: Number(pid) === process.pid, base: first ? cpu : 0, cpu };
          seen.set(key, e);
        }
        e.cpu = cpu;
      } catch {
        // gone between the listing and the read
      }
    }
  };
  sample(true);
  const timer = setInterval(() => sample(false), 100);
  return () => {
    clearInterval(timer);
    sample(false);
    const kinds = new Map();
    const commands = new Map();
    for (const e of seen.values()) {
      const used = e.cpu - e.base;
      if (used <= 0) continue;
      const kind = e.self
        ? 'this sampler'
        : e.cmd === ''
          ? 'kernel threads, zombies'
          : (KINDS.find(([, re]) => re.test(e.cmd))?.[0] ?? 'other');
      const k = kinds.get(kind) ?? { cpu: 0, n: 0 };
      k.cpu += used;
      k.n += 1;
      kinds.set(kind, k);
      if (kind === 'arena CLI') {
        const words = e.cmd
          .slice(e.cmd.indexOf('bin/arena.js') + 'bin/arena.js'.length)
          .trim()
          .split(' ');
        const command =
          /^[a-z]/.test(words[1] ?? '') && ['scenario', 'proxy', 'target', 'schema'].includes(words[0])
            ? `${words[0]} ${words[1]}`
            : words[0] || '(none)';
        const c = commands.get(command) ?? { cpu: 0, n: 0 };
        c.cpu += used;
        c.n += 1;
        commands.set(command, c);
      }
    }
    return {
      kinds: [...kinds].sort((a, b) => b[1].cpu - a[1].cpu),
      commands: [...commands].sort((a, b) => b[1].cpu - a[1].cpu),
    };
  };
}

/** `vitest run` as CI runs it; resolves with its exit code and stdout */
function vitestRun() {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['node_modules/vitest/vitest.mjs', 'run'], {
      cwd: root,
      env: { ...process.env, NO_COLOR: '1', CI: '1' },
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (c) => (stdout += c));
    child.once('error', reject);
    child.once('close', (status) => resolve({ status, stdout }));
  });
}

for (let r = 0; r < runs; r++) {
  const cpu0 = machineBusyS();
  const t0 = performance.now();
  const stopSampler = byProcess ? startSampler() : undefined;
  const run = await vitestRun();
  const sampled = stopSampler?.();
  const wallS = (performance.now() - t0) / 1000;
  const cpuS = machineBusyS() - cpu0;
  const tests = /Tests\s+(.*)/.exec(run.stdout)?.[1]?.trim() ?? '(no summary)';
  const floorS = cpuS / cores;
  console.log(`run ${r + 1}: exit ${run.status}, tests ${tests}`);
  console.log(
    `  wall ${wallS.toFixed(1)} s; machine CPU ${cpuS.toFixed(1)} s over ${cores} cores, so the floor is ${floorS.toFixed(1)} s`,
  );
  const aim =
    floorS <= AIM_S
      ? `the CPU leaves room for the aim, ${AIM_S} s`
      : `the aim, ${AIM_S} s, needs ${(100 * (1 - (AIM_S * cores) / cpuS)).toFixed(0)}% less CPU`;
  console.log(
    `  wall / floor ${(wallS / floorS).toFixed(2)}x (cores busy ${((100 * floorS) / wallS).toFixed(0)}% of the run); ${aim}`,
  );
  if (sampled) {
    const seenS = sampled.kinds.reduce((sum, [, k]) => sum + k.cpu, 0);
    console.log(
      `  by process (sampled every 100 ms): ${seenS.toFixed(1)} of the ${cpuS.toFixed(1)} CPU-s; the rest is processes shorter than a sample, and the kernel`,
    );
    for (const [kind, k] of sampled.kinds)
      console.log(`    ${kind.padEnd(32)} ${k.cpu.toFixed(1).padStart(6)} CPU-s in ${k.n} process(es)`);
    console.log(
      `  arena CLI by command: ${sampled.commands
        .slice(0, 8)
        .map(([c, k]) => `${c} ${k.cpu.toFixed(1)} (${k.n})`)
        .join(', ')}`,
    );
  }
}
