#!/usr/bin/env node
// Start-up cost of `arena scenario validate` against a bare `node -e 0`, measured in the same run.
// Usage: npm run build && node test/bench/cli-startup.mjs [runs]
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const runs = Number(process.argv[2] ?? 15);
const env = { PATH: process.env.PATH, NO_COLOR: '1', CI: '1' };

function median(cmdArgs) {
  const times = [];
  for (let i = 0; i < runs; i++) {
    const t = process.hrtime.bigint();
    execFileSync(process.execPath, cmdArgs, { cwd: root, env, stdio: 'ignore' });
    times.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

execFileSync(process.execPath, ['bin/arena.js', '--version'], { cwd: root, env, stdio: 'ignore' }); // warm the disk cache
const baseline = median(['-e', '0']);
const version = median(['bin/arena.js', '--version']);
const validate = median(['bin/arena.js', 'scenario', 'validate', 'test/fixtures/scenarios/quick-pass.yaml']);
console.log(`node -e 0                          median ${baseline.toFixed(1)} ms`);
console.log(`arena --version                    median ${version.toFixed(1)} ms  ratio ${(version / baseline).toFixed(2)}x`);
console.log(`arena scenario validate FILE       median ${validate.toFixed(1)} ms  ratio ${(validate / baseline).toFixed(2)}x`);
