import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { arena, REPO_ROOT } from '../helpers/cli.js';

let dir = '';
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'arena-e2e-flight-'));
});
// the stores are shared across the tests of this file, removed at the end
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('arena flight', () => {
  it('shows the actions of a survival run recorded with --store', async () => {
    const db = join(dir, 'runs.db');
    const run = await arena([
      'survival',
      '--duration',
      '600ms',
      '--interval',
      '150ms',
      '--seed',
      '7',
      '--store',
      db,
      '--json',
    ]);
    expect(run.exitCode, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout).survival;
    const executed: number = report.actions_run;

    const flight = await arena(['flight', '--store', db, '--json']);
    expect(flight.exitCode, flight.stderr).toBe(0);
    const doc = JSON.parse(flight.stdout);
    expect(doc.schema_version).toBe(1);
    expect(doc.timeline.length).toBeGreaterThan(0);
    expect(doc.timeline.length).toBe(executed);
    expect(doc.summary.sessions).toHaveLength(1);
    expect(doc.runs).toEqual([
      expect.objectContaining({ session: doc.summary.sessions[0], kind: 'survival', seed: 7, status: 'passed' }),
    ]);
    for (const r of doc.timeline)
      expect(r).toMatchObject({ type: expect.any(String), category: expect.any(String), at: expect.any(String) });

    const plain = await arena(['flight', '--store', db]);
    expect(plain.exitCode).toBe(0);
    expect(plain.stdout).toMatch(/Timeline \(\d+ of \d+ actions/);
    expect(plain.stdout).toMatch(/Runs\n.*survival.*seed 7/);
    expect(plain.stdout).not.toContain('survival survival');
    expect(plain.stdout).toContain(doc.timeline[0].type);
  });

  it('prints diagnostics of failed actions, filtered by agent, category and time', async () => {
    const db = join(dir, 'diag.db');
    // record two failures through the built library, as a server or a run would
    const script = `
      const { createAction } = await import(${JSON.stringify(join(REPO_ROOT, 'dist/index.js'))});
      const { SqliteEventStore, FlightRecorder } = await import(${JSON.stringify(join(REPO_ROOT, 'dist/events/index.js'))});
      const store = new SqliteEventStore({ path: ${JSON.stringify(db)} });
      const r = new FlightRecorder({ store, session: 'seeded' });
      await r.record({ success: false, action: createAction('kill_agent', 'ghost'), error: 'agent ghost not found', duration_ms: 1 });
      await r.record({ success: false, action: createAction('kill_leader'), error: 'kill_leader cannot be applied: there is no running leader right now', duration_ms: 1 });
      await r.record({ success: true, action: createAction('slow_agent', 'agent-2'), duration_ms: 1 });
      store.close();`;
    await execa('node', ['--input-type=module', '-e', script]);

    const all = JSON.parse((await arena(['flight', '--store', db, '--json'])).stdout);
    expect(all.timeline).toHaveLength(3);
    expect(all.diagnostics.map((d: { category: string }) => d.category)).toEqual(['process', 'leadership']);

    const ghost = JSON.parse((await arena(['flight', '--store', db, '--agent', 'ghost', '--json'])).stdout);
    expect(ghost.timeline.map((r: { target_id: string }) => r.target_id)).toEqual(['ghost']);
    expect(ghost.diagnostics[0]).toMatchObject({
      failure_reason: 'target_missing',
      suggested_fixes: expect.arrayContaining([expect.stringMatching(/arena describe/)]),
    });

    const leadership = JSON.parse(
      (await arena(['flight', '--store', db, '--category', 'leadership', '--since', '10m', '--json'])).stdout,
    );
    expect(leadership.timeline.map((r: { type: string }) => r.type)).toEqual(['kill_leader']);

    const future = JSON.parse(
      (await arena(['flight', '--store', db, '--since', '2999-01-01T00:00:00Z', '--json'])).stdout,
    );
    expect(future.timeline).toEqual([]);

    const plain = await arena(['flight', '--store', db, '--failed']);
    expect(plain.stdout).toMatch(/Diagnostics \(2\)/);
    expect(plain.stdout).toMatch(/root cause: the target ghost does not exist/);
  });

  it('rejects a missing store and bad filters with exit 2', async () => {
    const missing = await arena(['flight', '--store', join(dir, 'nope.db')]);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toMatch(/no event store at/);
    const since = await arena(['flight', '--store', join(dir, 'diag.db'), '--since', 'yesterday']);
    expect(since.exitCode).toBe(2);
    const category = await arena(['flight', '--store', join(dir, 'diag.db'), '--category', 'weather']);
    expect(category.exitCode).toBe(2);
    expect(category.stderr).toMatch(/unknown category "weather"/);
    const type = await arena(['flight', '--store', join(dir, 'diag.db'), '--type', 'kill_agnet']);
    expect(type.exitCode).toBe(2);
    expect(type.stderr).toMatch(/--type.*'kill_agnet' is invalid\. unknown action type \(one of kill_agent,/);
  });
});
