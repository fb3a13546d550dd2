/**
 * Distributed trials: `arena trials --workers postgres://…` with two `arena worker` processes gives the
 * same per-task counts as a local run with the same seed, each block a run on the queue taken once;
 * bad input is refused before anything is queued. The target is a stand-in agent behind the arena's
 * LLM fault proxy whose verdicts depend only on the trial id and the faults acting
 * (test/fixtures/trials-stand-in): some clean trials fail, every faulted one does.
 */
import { afterEach, describe, expect, it } from 'vitest';
import pg from 'pg';
import type { TrialsReport } from '../../src/arena/trials/report.js';
import { arena } from '../helpers/cli.js';
import { createDatabase } from '../helpers/postgres.js';
import { startWorker } from '../helpers/worker.js';
import { freeBasePort } from '../helpers/process-fleet.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const TARGET = 'test/fixtures/trials-stand-in/target.yaml';
const SCENARIO = 'test/fixtures/trials-stand-in/llm-outage.yaml';

/** what must not depend on where the trials ran */
function counts(report: TrialsReport) {
  return report.trials.tasks.map((t) => ({
    id: t.id,
    clean: [t.clean.n, t.clean.successes],
    faulted: t.faulted ? [t.faulted.n, t.faulted.successes] : null,
  }));
}

describe('arena trials --workers', () => {
  it('two worker processes give the same per-task counts as a local run with the same seed', async () => {
    const db = await createDatabase('trials');
    cleanups.push(() => db.drop());
    // each worker starts the stand-in on ports of its own (STANDIN_PORT)
    const workers = [];
    for (let i = 0; i < 2; i++)
      workers.push(startWorker(db.url, cleanups, { env: { STANDIN_PORT: String(await freeBasePort([0, 1, 2])) } }));
    // relative paths, from the repo root: the workers resolve them against their own working directory
    const args = ['trials', '--target', TARGET, '--scenario', SCENARIO, '--trials', '4', '--seed', '5', '--json'];
    const distributed = await arena([...args, '--workers', db.url], { timeout: 120_000 });
    const env = { STANDIN_PORT: String(await freeBasePort([0, 1, 2])) };
    const local = await arena(args, { timeout: 120_000, env });
    expect(distributed.exitCode, distributed.stderr).toBe(0);
    expect(local.exitCode, local.stderr).toBe(0);
    const d = JSON.parse(distributed.stdout) as TrialsReport;
    const l = JSON.parse(local.stdout) as TrialsReport;
    expect(counts(d)).toEqual(counts(l));
    expect(counts(d).map((t) => t.id)).toEqual(['alpha', 'beta', 'gamma']);
    // not a trivial equality: some clean trials fail (the stand-in's known set), every faulted one does
    const clean = counts(d).reduce((s, t) => s + t.clean[1]!, 0);
    expect(clean).toBeGreaterThan(0);
    expect(clean).toBeLessThan(12);
    for (const t of counts(d)) expect(t.faulted).toEqual([4, 0]);
    expect(d.trials.faults.applied).toBe(l.trials.faults.applied);
    // the calls were attributed on the workers as here: one LLM call per trial, none unattributed
    for (const t of d.trials.tasks) expect(t.behaviour.llm_calls).toEqual({ clean: 1, faulted: 1 });
    expect(d.trials.unattributed_calls).toBe(0);
    expect(d.trials.tasks.map((t) => t.cost.tokens)).toEqual(l.trials.tasks.map((t) => t.cost.tokens));
    expect(distributed.stderr).toContain('trials: rounds queued in postgres://');
    // both workers took rounds: 4 rounds, each once
    const logs = workers.map((w) => w.log());
    for (const log of logs) expect(log).toMatch(/done trials round \d \((clean|faulted), (clean|faulted);/);
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ run_key: string; kind: string; state: string; attempts: number }>(
        'SELECT run_key, kind, state, attempts FROM arena_runs ORDER BY id',
      );
      expect(rows.map((r) => r.run_key)).toEqual(['r0', 'r1', 'r2', 'r3']);
      expect(rows.every((r) => r.kind === 'trial' && r.state === 'done' && r.attempts === 1)).toBe(true);
    } finally {
      await client.end();
    }
  }, 180_000);

  it('bad input is refused before anything is queued: a URL that is not postgres://, --stop-when with --workers (exit 2)', async () => {
    const r = await arena(['trials', '--trials', '2', '--workers', 'runs.db']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('--workers takes a postgres:// URL');
    const s = await arena([
      'trials',
      '--trials',
      '2',
      '--workers',
      'postgres://127.0.0.1:1/none',
      '--stop-when',
      '{spend_above: {tokens: 1}}',
    ]);
    expect(s.exitCode).toBe(2);
    expect(s.stderr).toContain('--stop-when watches the target this process started');
  });
});
