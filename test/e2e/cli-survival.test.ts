import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { arena } from '../helpers/cli.js';
import { findAll, parseXml } from '../unit/cli/xml-check.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'arena-survival-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const sequence = (doc: any) =>
  doc.survival.timeline.map((t: any) => [
    t.action.type,
    t.action.target_id,
    t.action.source_id,
    t.action.metadata,
    t.planned_at,
  ]);

describe('arena survival', () => {
  it('--json prints one schema_version 1 document on stdout; events go to stderr', async () => {
    const r = await arena(['survival', '--duration', '500ms', '--interval', '100ms', '--seed', '3', '--json']);
    expect(r.exitCode).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.schema_version).toBe(1);
    const s = doc.survival;
    expect(s).toMatchObject({ seed: 3, duration_ms: 500, interval_ms: 100, actions_run: 5, status: 'passed' });
    expect(s.score).toMatchObject({ grade: expect.any(String) });
    expect(typeof s.score.availability).toBe('number');
    expect(s.score.measurements.requests.total).toBeGreaterThan(0);
    expect(s.drift).toMatchObject({ p50_ms: expect.any(Number), p99_ms: expect.any(Number) });
    expect(s.timeline).toHaveLength(5);
    for (const t of s.timeline)
      expect(t).toMatchObject({
        planned_at: expect.any(Number),
        at: expect.any(Number),
        action: { type: expect.any(String) },
        result: { success: expect.any(Boolean) },
      });
    expect(r.stderr).toContain('seed 3');
    expect(r.stderr).toMatch(/action #0 \w+/);
    expect(r.stderr).toContain('finished: passed');
  });

  it('repeats the same actions, targets and parameters for the same seed', async () => {
    const [a, b] = await Promise.all([
      arena(['survival', '--duration', '400ms', '--interval', '100ms', '--seed', '21', '--json']),
      arena(['survival', '--duration', '400ms', '--interval', '100ms', '--seed', '21', '--json']),
    ]);
    expect(sequence(JSON.parse(a.stdout))).toEqual(sequence(JSON.parse(b.stdout)));
  });

  it('plain mode prints the final table; --junit and --report write files; --save-scenario writes a replayable scenario', async () => {
    const junit = join(dir, 'out', 'survival.xml');
    const report = join(dir, 'survival.json');
    const scenario = join(dir, 'saved.yaml');
    const r = await arena([
      'survival',
      '--duration',
      '300ms',
      '--interval',
      '100ms',
      '--seed',
      '4',
      '--junit',
      junit,
      '--report',
      report,
      '--save-scenario',
      scenario,
    ]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('Survival (seed 4');
    expect(r.stdout).toMatch(/avail\..*recovery.*consist\./s);
    const root = parseXml(readFileSync(junit, 'utf8'));
    const suites = findAll(root, 'testsuite');
    expect(suites).toHaveLength(1);
    expect(suites[0]!.attrs.tests).toBe('4');
    const doc = JSON.parse(readFileSync(report, 'utf8'));
    expect(doc.survival.seed).toBe(4);
    const yaml = readFileSync(scenario, 'utf8');
    expect(yaml).toContain('name: survival-seed-4');
    expect((yaml.match(/- label: t\d+-/g) ?? []).length).toBe(3);
  });
});
