#!/usr/bin/env node
// Runs spent by `arena shrink` (candidates × repeats) with the divide-and-conquer search against greedy
// one-at-a-time removal, on the same input and the same oracle, from one invocation; per phase
// (reproduce, search, compress, certificate), with the ratio of the totals and of the search phase.
//
// Simulated (default): the real shrinkSchedule and sequential test on a seeded oracle with a hidden cause
// among N faults and a noise rate (a run of a candidate that contains the cause fails at 1 - noise, one
// that does not at noise). Pure computation: deterministic, machine-load free.
//   npm run build && node test/bench/shrink-runs.mjs [trials=200]
// Real: `arena shrink REPORT --target TARGET --json`, then the same with `--search greedy` (real runs).
// With examples/fleet-bug's target, a copy of examples/fleet and fleet-bug runs on a free base port.
//   npm run build && node test/bench/shrink-runs.mjs --real test/fixtures/shrink/fleet-bug-seed17.json examples/fleet-bug/target.yaml
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sequentialJudge, shrinkSchedule } from '../../dist/arena/shrink/index.js';
import { createRandom, deriveSeed } from '../../dist/shared/random.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const PHASES = ['reproduce', 'search', 'compress', 'certificate'];
const STRATEGIES = ['quickxplain', 'greedy'];

function sum(phases) {
  return Object.values(phases).reduce((a, p) => a + p.runs, 0);
}

function row(label, phases) {
  const parts = PHASES.map((p) => `${p} ${phases[p].runs.toFixed(1)} (${phases[p].candidates.toFixed(1)} cand.)`);
  return `  ${label.padEnd(12)} total ${sum(phases).toFixed(1).padStart(6)} · ${parts.join(' · ')}`;
}

function ratios(q, g) {
  return `  greedy ÷ quickxplain: total ${(sum(g) / sum(q)).toFixed(2)}× · search ${(g.search.runs / q.search.runs).toFixed(2)}×`;
}

/** one simulated shrink: n slow faults a second apart, `cause` the indices that must all be there */
async function simulate(n, cause, noise, seed, search) {
  const faults = Array.from({ length: n }, (_, i) => ({
    id: i,
    label: `t${i}`,
    type: 'slow_agent',
    target_id: `agent-${i % 3}`,
    at_ms: i * 400,
    metadata: { duration: '500ms' },
  }));
  const random = createRandom(seed);
  const judge = sequentialJudge(async (s) => {
    const ids = new Set(s.faults.map((f) => f.id));
    const fails = cause.every((c) => ids.has(c));
    return random.next() < noise ? (fails ? 'pass' : 'fail') : fails ? 'fail' : 'pass';
  });
  const out = await shrinkSchedule({ faults, cooldown_ms: 3000 }, { judge, runsSpent: judge.runsSpent, search });
  if (!out.reproduced) return undefined;
  const ids = out.schedule.faults.map((f) => f.id);
  const exact = ids.join(',') === [...cause].sort((a, b) => a - b).join(',');
  return { phases: out.phases, exact, superset: cause.every((c) => ids.includes(c)) };
}

async function simulated(trials) {
  // the planted pair of the 23-fault fleet-bug survival (seed 17), then random pairs among 23, 30, 40 and 60
  const cases = [
    { name: 'n=23, cause {15,17} (fleet-bug seed 17)', n: 23, pair: () => [15, 17] },
    ...[23, 30, 40, 60].map((n) => ({ name: `n=${n}, a random pair`, n, pair: randomPair(n) })),
  ];
  for (const noise of [0, 0.05]) {
    for (const c of cases) {
      const mean = {};
      let exact = 0;
      let superset = 0;
      let done = 0;
      for (const search of STRATEGIES) {
        const acc = Object.fromEntries(PHASES.map((p) => [p, { runs: 0, candidates: 0 }]));
        let count = 0;
        for (let t = 0; t < trials; t++) {
          const seed = deriveSeed(1000 + t, `${c.name}`);
          const pick = createRandom(deriveSeed(seed, 'pair'));
          // the same causes and noise seeds for both strategies: a paired comparison
          const r = await simulate(c.n, c.pair(pick), noise, deriveSeed(seed, 'noise'), search);
          if (!r) continue;
          count++;
          if (search === 'quickxplain') {
            done++;
            if (r.exact) exact++;
            if (r.superset) superset++;
          }
          for (const p of PHASES) {
            acc[p].runs += r.phases[p].runs;
            acc[p].candidates += r.phases[p].candidates;
          }
        }
        for (const p of PHASES) {
          acc[p].runs /= count;
          acc[p].candidates /= count;
        }
        mean[search] = acc;
      }
      console.log(
        `${c.name}, noise ${noise}: mean of ${trials} shrinks (quickxplain: exactly the cause ${exact}, a superset of it ${superset}, of ${done})`,
      );
      for (const s of STRATEGIES) console.log(row(s, mean[s]));
      console.log(ratios(mean.quickxplain, mean.greedy));
    }
  }
}

function randomPair(n) {
  return (random) => {
    const a = Math.floor(random.next() * n);
    let b = Math.floor(random.next() * (n - 1));
    if (b >= a) b++;
    return [a, b];
  };
}

function listensOn(port) {
  return new Promise((done) => {
    const s = createServer();
    s.once('error', () => done(undefined));
    s.listen(port, '127.0.0.1', () => done(s));
  });
}

/** a base port with the example fleet's offsets all free */
async function freeBase() {
  const offsets = [0, 1, 2, 3, 101, 102, 103];
  for (let base = 24000 + Math.floor(Math.random() * 200) * 150; base < 60000; base += 150) {
    const held = await Promise.all(offsets.map((o) => listensOn(base + o)));
    await Promise.all(held.map((s) => s && new Promise((r) => s.close(r))));
    if (held.every(Boolean)) return base;
  }
  throw new Error('no free base port');
}

function arena(args, env) {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [join(ROOT, 'bin/arena.js'), ...args], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.on('error', fail);
    child.on('close', (code) => (code === 0 ? done(JSON.parse(out)) : fail(new Error(`arena shrink exited ${code}`))));
  });
}

async function real(report, target) {
  let root;
  let env = {};
  let targetFile = resolve(target);
  if (targetFile === join(ROOT, 'examples/fleet-bug/target.yaml')) {
    // a copy on a free base port, so 7000-7103 need not be free (as test/helpers/example-fleet.ts does)
    root = mkdtempSync(join(tmpdir(), 'arena-shrink-bench-'));
    for (const e of ['fleet', 'fleet-bug'])
      cpSync(join(ROOT, 'examples', e), join(root, 'examples', e), {
        recursive: true,
        filter: (src) => !src.includes(join(e, 'run')),
      });
    symlinkSync(join(ROOT, 'node_modules'), join(root, 'node_modules'));
    targetFile = join(root, 'examples/fleet-bug/target.yaml');
    env = { ARENA_EXAMPLE_PORT: String(await freeBase()) };
  }
  try {
    const docs = {};
    for (const search of STRATEGIES) {
      const out = join(root ?? tmpdir(), `shrunk-${search}.yaml`);
      const started = Date.now();
      docs[search] = await arena(
        ['shrink', resolve(report), '--target', targetFile, '--out', out, '--json', '--search', search],
        env,
      );
      const d = docs[search];
      console.log(
        `${search}: ${d.original_faults} → ${d.minimal_faults} fault(s) [${d.faults.map((f) => f.label).join(', ')}], ${d.runs} runs, ${d.candidates} candidates, ${d.method}, ${Math.round((Date.now() - started) / 1000)} s`,
      );
    }
    for (const s of STRATEGIES) console.log(row(s, docs[s].runs_by_phase));
    console.log(ratios(docs.quickxplain.runs_by_phase, docs.greedy.runs_by_phase));
  } finally {
    if (root) rmSync(root, { recursive: true, force: true });
  }
}

const args = process.argv.slice(2);
if (args[0] === '--real') {
  if (args.length !== 3) throw new Error('usage: shrink-runs.mjs --real REPORT.json TARGET.yaml');
  await real(args[1], args[2]);
} else {
  await simulated(Number(args[0] ?? 200));
}
