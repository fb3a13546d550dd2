/**
 * Issue 39's check of several `arena serve` on one PostgreSQL: 2 and 3 servers,
 * hammered with 2 × N concurrent actions (default 2 × 1,000), five runs each.
 * A run passes when the `arena` stream holds exactly as many events as actions
 * answered 200/422, with versions 1..n. Anything else is listed: a 5xx says
 * the action was not recorded; a request that never got an answer (status 0,
 * the client's own connection failing under 2,000 at once) is shown with why.
 *
 * Run: npm run build && node test/bench/serve-postgres-contention.mjs [N] [runs]
 */
import { execa } from 'execa';
import pg from 'pg';
import { startCluster } from '../../scripts/pg-cluster.mjs';

const N = Number(process.argv[2] ?? 1000);
const RUNS = Number(process.argv[3] ?? 5);
const ROOT = new URL('../..', import.meta.url).pathname;

async function serve(url) {
  const proc = execa('node', ['bin/arena.js', 'serve', '--port', '0', '--store', url], {
    cwd: ROOT,
    reject: false,
    env: { NO_COLOR: '1', CI: '1' },
  });
  let out = '';
  const base = await new Promise((resolve, reject) => {
    proc.stdout.on('data', (c) => {
      out += c;
      const m = /serving on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]);
    });
    void proc.then((r) => reject(new Error(`serve exited ${r.exitCode}: ${r.stderr}`)));
  });
  return { base, stop: () => (proc.kill('SIGTERM'), proc) };
}

/**
 * every one an action that runs and is recorded (as the e2e test's): a short slow-down, and every fourth a
 * resume of an agent that is not paused, which fails (422) and is recorded too (an unknown agent would be
 * refused before anything runs, 400, and prove nothing)
 */
function act(base, i) {
  const body =
    i % 4 === 0
      ? { type: 'resume_agent', target_id: 'agent-1' }
      : { type: 'slow_agent', target_id: `agent-${2 + (i % 2)}`, metadata: { duration: '50ms', delay: '1ms' } };
  return fetch(`${base}/arena/actions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  }).then(
    async (r) => ({ status: r.status, body: await r.text() }),
    (err) => ({ status: 0, body: `${err} ${err?.cause?.code ?? err?.cause ?? ''}` }),
  );
}

async function admin(url, sql) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}

const cluster = await startCluster({ durable: true });
let failed = 0;
try {
  for (const servers of [2, 3]) {
    for (let run = 1; run <= RUNS; run++) {
      const name = `bench_${servers}_${run}`;
      await admin(cluster.url, `CREATE DATABASE ${name}`);
      const url = cluster.urlFor(name);
      const procs = await Promise.all(Array.from({ length: servers }, () => serve(url)));
      const started = performance.now();
      const replies = await Promise.all(Array.from({ length: 2 * N }, (_, i) => act(procs[i % servers].base, i)));
      const seconds = (performance.now() - started) / 1000;
      await Promise.all(procs.map((p) => p.stop()));
      const answered = replies.filter((r) => r.status === 200 || r.status === 422).length;
      const told = replies.filter((r) => r.status >= 500).length;
      const other = replies.length - answered - told;
      const versions = (
        await admin(url, "SELECT version FROM arena_events WHERE stream_id = 'arena' ORDER BY version")
      ).map((r) => Number(r.version));
      const contiguous = versions.every((v, i) => v === i + 1);
      const ok = versions.length === answered && contiguous;
      const why = new Map();
      for (const r of replies.filter((r) => r.status !== 200 && r.status !== 422)) {
        const key = `${r.status} ${r.body.slice(0, 80)}`;
        why.set(key, (why.get(key) ?? 0) + 1);
      }
      if (!ok) failed += 1;
      console.log(
        `${servers} servers, run ${run}: ${replies.length} actions in ${seconds.toFixed(1)} s, ${answered} answered, ${told} told not recorded, ${other} other; ${versions.length} events, contiguous ${contiguous} → ${ok ? 'ok' : 'FAILED'}`,
      );
      for (const [key, n] of why) console.log(`  ${n} × ${key}`);
    }
  }
} finally {
  await cluster.stop();
}
console.log(failed === 0 ? `all ${2 * RUNS} runs ok` : `${failed} of ${2 * RUNS} runs FAILED`);
process.exitCode = failed === 0 ? 0 : 1;
