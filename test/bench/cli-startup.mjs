#!/usr/bin/env node
// Start-up cost of `arena --version` and `arena scenario validate` against a bare `node -e 0`, measured
// in the same run, with the floor `validate` cannot go under: node loading the bundled yaml and parsing
// the same file, and that plus loading the bundled zod the validator's schema is written in. Two figures
// each: the median wall time, and the mean CPU time (user + sys of the child, all its threads, from
// /proc/self/stat), which a busy machine disturbs much less.
// The CLI and the floors run with the compile cache (a directory of the bench's own, written by the
// warm-up run), as bin/arena.js does: CommonJS, the bundles through dist/vendor/compile-cache.cjs.
// validate runs once more with the cache off (NODE_DISABLE_COMPILE_CACHE), and the CLI once more from
// its ES modules (dist/cli/main.js, as bin/arena.js ran it before scripts/bundle-cli.mjs): what the
// cache and the CLI's bundle save. A short `scenario run` shows the same for a command that loads the
// engine. Two more rows load the MCP SDK, which every process running the embedded runtime needs:
// the package's own modules against our one-file bundle of them.
// Usage: npm run build && node test/bench/cli-startup.mjs [runs]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const runs = Number(process.argv[2] ?? 15);
// a compile cache of the bench's own, written by the warm-up run below
const cacheDir = mkdtempSync(join(tmpdir(), 'arena-bench-cache-'));
process.on('exit', () => rmSync(cacheDir, { recursive: true, force: true }));
const env = { PATH: process.env.PATH, NO_COLOR: '1', CI: '1', NODE_COMPILE_CACHE: cacheDir };
const FILE = 'test/fixtures/scenarios/quick-pass.yaml';

/** the key scripts/bundle-vendor.mjs gave a vendor bundle, from its door */
const keyOf = (name) => /'([\w-]+-\d[^']*)'\)/.exec(readFileSync(join(root, 'dist/vendor', `${name}.js`), 'utf8'))[1];
// the floors load the bundles as the CLI does: CommonJS, through the compile cache's CommonJS build
const LOAD = `const cc = require('./dist/vendor/compile-cache.cjs'); cc.enableCompileCache();
const load = (name, key) => cc.loadBundle(require('node:url').pathToFileURL(require('node:path').resolve('dist/vendor', name + '.cjs')), key);`;
const FLOOR = `${LOAD} const { LineCounter, parseDocument } = load('yaml', '${keyOf('yaml')}');
parseDocument(require('node:fs').readFileSync('${FILE}', 'utf8'), { lineCounter: new LineCounter() }).toJS();`;
// the validator is a zod schema (one schema source for checks, types and JSON Schema), so zod's own
// load is part of what validate cannot go under
const FLOOR_ZOD = `${FLOOR} load('zod', '${keyOf('zod')}');`;
/** the CLI from its ES modules, with the vendor bundles' cache, as bin/arena.js ran it before the CLI was bundled */
const esModules = (argv) => [
  '--input-type=module',
  '-e',
  `import { enableCompileCache } from './dist/vendor/compile-cache.js'; enableCompileCache(); const { run } = await import('./dist/cli/main.js'); process.exitCode = await run(${JSON.stringify(argv)});`,
];

// the SDK's modules the embedded runtime uses, from node_modules, against the same modules in our bundle (dist/vendor/mcp-sdk.cjs)
const MCP_PACKAGE =
  "await Promise.all(['server/mcp.js', 'client/index.js', 'inMemory.js'].map((m) => import('@modelcontextprotocol/sdk/' + m)));";
const VALIDATE = ['scenario', 'validate', FILE];
const RUN = ['scenario', 'run', FILE];

const CASES = {
  'node -e 0': ['-e', '0'],
  'arena --version': ['bin/arena.js', '--version'],
  'arena scenario validate FILE': ['bin/arena.js', ...VALIDATE],
  'validate, no compile cache': ['bin/arena.js', ...VALIDATE],
  'validate, the CLI as ES modules': esModules(VALIDATE),
  'floor: node + yaml + parse FILE': ['-e', FLOOR],
  'floor: ... + load zod': ['-e', FLOOR_ZOD],
  // a command that loads the engine, the embedded target and the MCP SDK (its wall time is mostly the scenario's own)
  'arena scenario run FILE': ['bin/arena.js', ...RUN],
  'run, the CLI as ES modules': esModules(RUN),
  // what every process that runs the embedded runtime loads (its agents talk to an in-process MCP server)
  'MCP SDK, the package': ['--input-type=module', '-e', MCP_PACKAGE],
  'MCP SDK, one-file bundle': ['-e', `${LOAD} load('mcp-sdk', '${keyOf('mcp-sdk')}');`],
};
// the same command without the cache, in the same run: what the cache saves
const CASE_ENV = { 'validate, no compile cache': { NODE_DISABLE_COMPILE_CACHE: '1' } };

/** user + sys ms of the children this process has waited for (Linux; undefined elsewhere) */
function childCpuMs() {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[13]) + Number(fields[14])) * 1000) / 100; // cutime, cstime in USER_HZ (100)
  } catch {
    return undefined;
  }
}

const wall = Object.fromEntries(Object.keys(CASES).map((k) => [k, []]));
const cpu = Object.fromEntries(Object.keys(CASES).map((k) => [k, 0]));
// warm the disk cache and write the compile caches: each case once, untimed
for (const [name, args] of Object.entries(CASES))
  execFileSync(process.execPath, args, { cwd: root, env: { ...env, ...CASE_ENV[name] }, stdio: 'ignore' });
// interleaved, so a burst of load elsewhere hits every case alike
for (let i = 0; i < runs; i++) {
  for (const [name, args] of Object.entries(CASES)) {
    const c0 = childCpuMs();
    const t = process.hrtime.bigint();
    execFileSync(process.execPath, args, { cwd: root, env: { ...env, ...CASE_ENV[name] }, stdio: 'ignore' });
    wall[name].push(Number(process.hrtime.bigint() - t) / 1e6);
    const c1 = childCpuMs();
    if (c0 !== undefined && c1 !== undefined) cpu[name] += c1 - c0;
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const baseWall = median(wall['node -e 0']);
const baseCpu = cpu['node -e 0'] / runs;
for (const name of Object.keys(CASES)) {
  const w = median(wall[name]);
  const c = cpu[name] / runs;
  const cpuText =
    childCpuMs() === undefined ? '' : `   cpu mean ${c.toFixed(1).padStart(6)} ms  ratio ${(c / baseCpu).toFixed(2)}x`;
  console.log(
    `${name.padEnd(32)} wall median ${w.toFixed(1).padStart(6)} ms  ratio ${(w / baseWall).toFixed(2)}x${cpuText}`,
  );
}
