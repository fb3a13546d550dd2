/**
 * `arena shrink --workers postgres://…`: with two `arena worker` processes running the candidates'
 * runs, a shrink reaches the same minimal set as a local one (the six-fault fixture whose failure
 * needs two faults, on the embedded runtime with the strategy its report recorded), and every run on
 * the queue was a shrink run taken once. With `--store` on the same database, the shrink on workers is
 * recorded as a job the web console's Shrink view reads, ending on the minimal faults it printed.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { readShrinkJobs } from '../../src/events/shrink-progress.js';
import { openReadyEventStore } from '../../src/events/open.js';
import { arena } from '../helpers/cli.js';
import { createDatabase } from '../helpers/postgres.js';
import { startWorker } from '../helpers/worker.js';

const FIXTURE = 'test/fixtures/shrink/two-fault-bug.yaml';
const OFF = 'strategies/recovery-off.yaml';
// generous safety nets: one candidate run takes about a second on an idle machine
const LONG = 600_000;
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'arena-shrink-workers-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe('arena shrink --workers', () => {
  it(
    'two workers reach the same minimal set as a local shrink of the same report',
    async () => {
      const report = join(dir, 'report.json');
      const run = await arena(['scenario', 'run', FIXTURE, '--strategy', OFF, '--report', report, '--json']);
      expect(run.exitCode).toBe(1);
      const db = await createDatabase('shrink');
      cleanups.push(() => db.drop());
      const workers = [startWorker(db.url, cleanups), startWorker(db.url, cleanups)];
      const distributed = await arena(
        ['shrink', report, '--out', join(dir, 'd.yaml'), '--json', '--workers', db.url, '--store', db.url],
        { timeout: LONG },
      );
      const local = await arena(['shrink', report, '--out', join(dir, 'l.yaml'), '--json'], { timeout: LONG });
      expect(distributed.exitCode, distributed.stderr).toBe(0);
      expect(local.exitCode, local.stderr).toBe(0);
      const d = JSON.parse(distributed.stdout);
      const l = JSON.parse(local.stdout);
      const labels = (doc: { faults: Array<{ label: string }> }) => doc.faults.map((f) => f.label);
      expect(labels(d)).toEqual(['kill-3', 'slow-3']);
      expect(labels(d)).toEqual(labels(l));
      expect(d.signature).toEqual(l.signature);
      expect(d.certificate.map((c: { fault: string }) => c.fault)).toEqual(['kill-3', 'slow-3']);
      expect(distributed.stderr).toMatch(
        /shrink: \d+ run\(s\) started on the workers \(the sequential test used \d+\)/,
      );
      expect(workers.map((w) => w.log()).join('')).toMatch(/done shrink run of \d+ fault\(s\)/);
      // --store: the job the Shrink view shows, read back from the workers' database
      expect(distributed.stderr).toMatch(/shrink: recording job \S+ in postgres:\/\/\S+ \(arena serve --store on it/);
      const store = await openReadyEventStore(db.url, { cwd: dir });
      try {
        const jobs = await readShrinkJobs(store.store, 5);
        expect(jobs).toHaveLength(1);
        expect(jobs[0]).toMatchObject({
          status: 'shrunk',
          original_faults: 6,
          minimal_faults: ['kill-3', 'slow-3'],
          runs: d.runs,
          candidates: d.candidates,
          certificate: d.certificate,
        });
      } finally {
        await store.close();
      }
      const client = new pg.Client({ connectionString: db.url });
      await client.connect();
      try {
        const { rows } = await client.query<{ kind: string; state: string; attempts: number }>(
          "SELECT kind, state, attempts FROM arena_runs WHERE state <> 'cancelled'",
        );
        expect(rows.length).toBeGreaterThan(0);
        expect(rows.every((r) => r.kind === 'shrink' && r.attempts === 1)).toBe(true);
      } finally {
        await client.end();
      }
    },
    LONG,
  );
});
