import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { arena } from '../helpers/cli.js';
import { findAll, parseXml } from '../unit/cli/xml-check.js';

const FX = 'test/fixtures/scenarios';
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'arena-scenario-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('arena scenario run', () => {
  it('--json prints one document with the measured score and per-action results', async () => {
    const r = await arena(['scenario', 'run', `${FX}/quick-pass.yaml`, '--json']);
    expect(r.exitCode).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.schema_version).toBe(1);
    expect(doc.scenarios).toHaveLength(1);
    const s = doc.scenarios[0];
    expect(s).toMatchObject({ name: 'quick-pass', verified: true, passed: 2, failed: 0, seed: 7, status: 'passed' });
    expect(s.results.map((o: any) => o.label)).toEqual(['kill-leader', 'slow-worker']);
    expect(s.score).toMatchObject({
      score: expect.any(Number),
      grade: expect.any(String),
      availability: expect.any(Number),
      recovery: expect.any(Number),
      consistency: expect.any(Number),
    });
    expect(s.score.measurements.requests.total).toBeGreaterThan(0);
    expect(r.stderr).toContain('action kill-leader kill_leader → ok');
  });

  it('plain mode prints per-action results and the final table', async () => {
    const r = await arena(['scenario', 'run', `${FX}/quick-pass.yaml`, '--seed', '11']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/kill-leader.*kill_leader.*ok.*success.*met/);
    expect(r.stdout).toMatch(/score.*avail\..*recovery.*consist\..*MTTR p50\/p95.*expected/s);
    expect(r.stdout).toContain('(seed 11');
    // biome-ignore lint/suspicious/noControlCharactersInRegex: ESC starts a colour sequence
    expect(r.stdout).not.toMatch(/\u001b\[/); // NO_COLOR
  });

  it('exits 1 when an expectation is not met, and JUnit shows the failure', async () => {
    const junit = join(dir, 'miss.xml');
    const r = await arena(['scenario', 'run', `${FX}/expect-miss.yaml`, '--junit', junit]);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('expect-miss: 1 expectation(s) not met');
    const root = parseXml(readFileSync(junit, 'utf8'));
    const failures = findAll(root, 'failure');
    expect(failures).toHaveLength(1);
    expect(failures[0]!.attrs.message).toContain('expected success, the action failed: resume: agent agent-2');
  });

  it('refuses an agent the target does not have before anything is injected: exit 2, path and line:col', async () => {
    const r = await arena(['scenario', 'run', `${FX}/unknown-agent.yaml`, '--json']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(
      /unknown-agent\.yaml:11:\d+ actions\[1\]\.action\.target_id unknown agent "agent-9" \(the target's agents: agent-1/,
    );
    expect(r.stderr).toContain('nothing was injected');
    expect(JSON.parse(r.stdout).scenarios).toEqual([]);
    // without --json: the refusal on stderr, and no empty summary table on stdout
    const plain = await arena(['scenario', 'run', `${FX}/unknown-agent.yaml`]);
    expect(plain.exitCode).toBe(2);
    expect(plain.stderr).toContain('unknown agent "agent-9"');
    expect(plain.stdout).toBe('');
  });

  it('a run that measured no workload request is inconclusive: exit 1, no score, never a grade', async () => {
    const strategy = join(dir, 'no-workload.yaml');
    writeFileSync(strategy, 'workload: { enabled: false }\n');
    const junit = join(dir, 'inconclusive.xml');
    const r = await arena([
      'scenario',
      'run',
      `${FX}/quick-pass.yaml`,
      '--strategy',
      strategy,
      '--json',
      '--junit',
      junit,
    ]);
    expect(r.exitCode).toBe(1);
    const s = JSON.parse(r.stdout).scenarios[0];
    expect(s.status).toBe('inconclusive');
    expect(s.score).toMatchObject({ score: null, grade: null, availability: null });
    expect(s.score.availability_why).toMatch(/no workload request/);
    expect(r.stderr).toMatch(/quick-pass: inconclusive/);
    const failures = findAll(parseXml(readFileSync(junit, 'utf8')), 'failure');
    expect(failures.map((f) => f.attrs.message)).toEqual([expect.stringMatching(/^inconclusive: /)]);
    const table = await arena(['scenario', 'run', `${FX}/quick-pass.yaml`, '--strategy', strategy]);
    expect(table.exitCode).toBe(1);
    expect(table.stdout).toMatch(/quick-pass.*inconclusive/);
    expect(table.stdout).not.toMatch(/ F\b/);
  });

  it('gates on --min-score: exit 1 with how far below; --report is written on failure too', async () => {
    const report = join(dir, 'gate.json');
    const junit = join(dir, 'gate.xml');
    const r = await arena([
      'scenario',
      'run',
      `${FX}/kills-slow-recovery.yaml`,
      `${FX}/quick-pass.yaml`,
      '--strategy',
      'strategies/recovery-off.yaml',
      '--min-score',
      '99',
      '--report',
      report,
      '--junit',
      junit,
      '--json',
    ]);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/kills-slow-recovery: score [\d.]+ is [\d.]+ below the minimum 99/);
    const doc = JSON.parse(readFileSync(report, 'utf8'));
    expect(doc).toEqual(JSON.parse(r.stdout));
    expect(doc.scenarios[0].gate).toMatchObject({ min_score: 99, passed: false });
    const suites = findAll(parseXml(readFileSync(junit, 'utf8')), 'testsuite');
    expect(suites.map((s) => s.attrs.name)).toEqual(['scenario: kills-slow-recovery', 'scenario: quick-pass']);
    expect(suites[0]!.attrs.tests).toBe('3');
    expect(suites[1]!.attrs.tests).toBe('3');
  });

  it('refuses invalid files before running anything (exit 2)', async () => {
    const r = await arena(['scenario', 'run', `${FX}/quick-pass.yaml`, `${FX}/unknown-type.yaml`, '--json']);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('unknown action type "explode_everything"');
    expect(r.stderr).toContain('nothing was run');
  });
});
