/**
 * Distributed regress: `regress --workers postgres://…` with `arena worker`
 * processes decides as the local run does for the same seeds, and a worker
 * SIGKILLed mid-run has its run taken again after the lease, not lost and not
 * counted twice.
 */
import { afterEach, describe, expect, it } from 'vitest';
import pg from 'pg';
import { arena } from '../helpers/cli.js';
import { createDatabase } from '../helpers/postgres.js';
import { startWorker } from '../helpers/worker.js';

const FAST = ['--survival', '500ms', '--interval', '100ms', '--recovery-deadline', '1s', '--cooldown', '300ms'];
const STRATEGIES = ['--baseline', 'strategies/recovery-off.yaml', '--candidate', 'strategies/default.yaml'];

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function until(check: () => boolean, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 50));
  }
}

type Regression = {
  decision: string;
  runs_used: number;
  pairs: Array<{ seed: number; baseline: number; candidate: number }>;
  sequential?: { stopped: string; looks: Array<{ n: number; nominal_p: number; decision: string }> };
};

describe('arena regress --workers', () => {
  it('3 worker processes reach the same decision as the local run, on the same seeds and the same looks', async () => {
    const db = await createDatabase('regress');
    cleanups.push(() => db.drop());
    for (let i = 0; i < 3; i++) startWorker(db.url, cleanups);
    const args = [
      'regress',
      ...STRATEGIES,
      ...FAST,
      '--adaptive',
      '--min-runs',
      '3',
      '--batch',
      '2',
      '--max-runs',
      '7',
      '--seed',
      '21',
      '--json',
    ];
    const [distributed, local] = [
      await arena([...args, '--workers', db.url]),
      await arena([...args, '--parallel', '4']),
    ];
    expect(distributed.exitCode, distributed.stderr).toBe(0);
    expect(local.exitCode, local.stderr).toBe(0);
    const d = (JSON.parse(distributed.stdout) as { regression: Regression }).regression;
    const l = (JSON.parse(local.stdout) as { regression: Regression }).regression;
    expect(d.decision).toBe('candidate better');
    expect(d.decision).toBe(l.decision);
    expect(d.sequential?.stopped).toBe('efficacy');
    expect(l.sequential?.stopped).toBe('efficacy');
    // The scores are measured in real time, so the look that first crosses the boundary may differ
    // between two runs on a busy machine (one stopped at 3 pairs, the other at 5). Up to the shorter
    // run, both ran the same seeds in the same order and looked at the same n against the same boundary.
    const shared = Math.min(d.runs_used, l.runs_used);
    expect(shared).toBeGreaterThanOrEqual(3);
    expect(d.pairs.slice(0, shared).map((p) => p.seed)).toEqual(l.pairs.slice(0, shared).map((p) => p.seed));
    const plan = (r: Regression) => r.sequential!.looks.filter((x) => x.n <= shared).map((x) => [x.n, x.nominal_p]);
    expect(plan(d)).toEqual(plan(l));
    expect(plan(d).map(([n]) => n)).toEqual([3, 5, 7].filter((n) => n <= shared));
    expect(distributed.stderr).toContain('runs go on the queue in postgres://arena:***@');
  }, 90_000);

  it('a worker SIGKILLed mid-run: its run is taken again after the lease, and every run is counted exactly once', async () => {
    const db = await createDatabase('regresskill');
    cleanups.push(() => db.drop());
    const doomed = startWorker(db.url, cleanups, { args: ['--lease', '1500ms'] });
    const regress = arena([
      'regress',
      ...STRATEGIES,
      ...FAST,
      '--runs',
      '3',
      '--seed',
      '5',
      '--json',
      '--workers',
      db.url,
    ]);
    await until(() => /took (\w+ run \d+ \(seed \d+), take 1\)/.test(doomed.log()));
    const taken = /took (\w+ run \d+ \(seed \d+), take 1\)/.exec(doomed.log())![1]!;
    doomed.proc.kill('SIGKILL');
    expect((await doomed.proc).signal).toBe('SIGKILL');
    const rescuers = [
      startWorker(db.url, cleanups, { args: ['--lease', '1500ms'] }),
      startWorker(db.url, cleanups, { args: ['--lease', '1500ms'] }),
    ];
    const r = await regress;
    expect(r.exitCode, r.stderr).toBe(0);
    const v = (JSON.parse(r.stdout) as { regression: Regression }).regression;
    // every pair complete (the verdict itself is the first test's business: 3 pairs on a loaded machine may not separate)
    expect(v.pairs).toHaveLength(3);
    for (const p of v.pairs) expect([p.baseline, p.candidate].every(Number.isFinite)).toBe(true);
    // the killed worker's run was retried by a rescuer: a second take of the same run
    expect(rescuers.map((w) => w.log()).join('')).toMatch(
      new RegExp(`done ${taken.replace(/[()]/g, '\\$&')}, take [2-9]\\)`),
    );
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ run_key: string; state: string; attempts: number; lapses: number }>(
        'SELECT run_key, state, attempts, lapses FROM arena_runs ORDER BY id',
      );
      // 3 pairs: 6 runs, each once, each with one score
      expect(rows).toHaveLength(6);
      expect(new Set(rows.map((x) => x.run_key)).size).toBe(6);
      expect(rows.every((x) => x.state === 'done')).toBe(true);
      const [arm, run] = taken.split(' run ');
      const retried = rows.find((x) => x.run_key === `${arm}:${Number(run!.split(' ')[0]) - 1}`)!;
      expect(retried.attempts).toBeGreaterThanOrEqual(2);
      expect(retried.lapses).toBeGreaterThanOrEqual(1);
    } finally {
      await client.end();
    }
  }, 90_000);

  it('bad input: --workers needs a postgres:// URL; arena worker needs a PostgreSQL store (exit 2)', async () => {
    const r = await arena(['regress', ...STRATEGIES, '--workers', 'runs.db']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('--workers takes a postgres:// URL');
    const w = await arena(['worker', '--store', 'runs.db']);
    expect(w.exitCode).toBe(2);
    expect(w.stderr).toContain('arena worker needs --store postgres://');
  });
});
