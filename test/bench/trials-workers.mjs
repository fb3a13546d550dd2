// Wall time of `arena trials` (8 trials × 3 tasks, clean and under llm_failure: 48 trials) on the
// example LLM agent (examples/llm-agent, the openai SDK behind the arena's LLM fault proxy), run
// locally and with `--workers` on 2 `arena worker` processes (each starting its own copy of the
// example on ports of its own), printed as a ratio; the per-task counts of both are compared too.
// The example has two tasks; a third (`calc`) is added in a temporary copy of its target file.
//   npm run build && node test/bench/trials-workers.mjs [trials] [seed]
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startCluster } from '../../scripts/pg-cluster.mjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(ROOT, 'bin/arena.js');
const EXAMPLE = join(ROOT, 'examples/llm-agent');
const trials = process.argv[2] ?? '8';
const seed = process.argv[3] ?? '1';

/** three consecutive free ports (the example's LLM stand-in, agent, LLM fault proxy) */
async function freeBase() {
  for (;;) {
    const base = 20_000 + Math.floor(Math.random() * 30_000);
    const ok = await Promise.all(
      [0, 1, 2].map(
        (o) =>
          new Promise((resolve) => {
            const s = createServer();
            s.once('error', () => resolve(false));
            s.listen(base + o, '127.0.0.1', () => s.close(() => resolve(true)));
          }),
      ),
    );
    if (ok.every(Boolean)) return base;
  }
}

const dir = mkdtempSync(join(tmpdir(), 'arena-bench-trials-'));
const target = join(dir, 'target.yaml');
const text = readFileSync(join(EXAMPLE, 'target.yaml'), 'utf8').replace(
  /^start:\n/m,
  `start:\n  cwd: ${JSON.stringify(EXAMPLE)}\n`,
);
const calc = `  - id: calc
    request: { method: POST, url: "http://127.0.0.1:\${ARENA_EXAMPLE_PORT:-7350 + 1}/task", json: { q: "6*7" }, timeout: 10s }
    expect: { status: 200, json: { path: "$.answer", equals: "echo: 6*7" } }
`;
writeFileSync(target, text.replace(/^prices:/m, `${calc}prices:`));
const args = [
  'trials',
  '--target',
  target,
  '--scenario',
  join(EXAMPLE, 'scenarios/llm-outage.yaml'),
  '--trials',
  trials,
  '--seed',
  seed,
  '--json',
];
const env = (port) => ({ PATH: process.env.PATH ?? '', NO_COLOR: '1', CI: '1', ARENA_EXAMPLE_PORT: String(port) });

function arena(extra, port) {
  const started = performance.now();
  return new Promise((resolve, reject) =>
    execFile('node', [BIN, ...args, ...extra], { env: env(port), maxBuffer: 1 << 24 }, (err, stdout, stderr) => {
      const seconds = (performance.now() - started) / 1000;
      if (err && !stdout) return reject(new Error(`arena trials failed: ${stderr}`));
      const report = JSON.parse(stdout);
      resolve({
        seconds,
        report,
        counts: report.trials.tasks.map(
          (t) => `${t.id} ${t.clean.successes}/${t.clean.n} clean, ${t.faulted.successes}/${t.faulted.n} faulted`,
        ),
      });
    }),
  );
}

const cluster = await startCluster();
const workers = [];
try {
  const local = await arena([], await freeBase());
  for (let i = 0; i < 2; i++) {
    const w = spawn('node', [BIN, 'worker', '--store', cluster.url], { env: env(await freeBase()), stdio: 'ignore' });
    workers.push(w);
  }
  const distributed = await arena(['--workers', cluster.url], await freeBase());
  console.log(`${trials} trials × 3 tasks × 2 arms (seed ${seed}) on examples/llm-agent under llm-outage`);
  console.log(`  local:      ${local.seconds.toFixed(1)} s  (${local.counts.join('; ')})`);
  console.log(`  2 workers:  ${distributed.seconds.toFixed(1)} s  (${distributed.counts.join('; ')})`);
  console.log(`  ratio local / 2 workers: ${(local.seconds / distributed.seconds).toFixed(2)}`);
  console.log(`  same per-task counts: ${JSON.stringify(local.counts) === JSON.stringify(distributed.counts)}`);
} finally {
  for (const w of workers) w.kill('SIGINT');
  await Promise.all(workers.map((w) => new Promise((r) => (w.exitCode !== null ? r() : w.once('exit', r)))));
  await cluster.stop();
  rmSync(dir, { recursive: true, force: true });
}
