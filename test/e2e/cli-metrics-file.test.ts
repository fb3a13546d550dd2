/**
 * Issue 36: `--metrics-file FILE` on `scenario run` and `survival` writes the
 * final figures in the Prometheus text format (DESIGN §17), atomically, for
 * node_exporter's textfile collector; promtool finds nothing to complain about.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { arena } from '../helpers/cli.js';

const PROMTOOL = process.env.ARENA_PROMTOOL ?? '/usr/bin/promtool';
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'arena-metrics-file-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('--metrics-file', () => {
  it('scenario run: the run, its faults and its score in the text format, no temporary file left', async () => {
    const file = join(dir, 'textfile', 'arena.prom');
    const r = await arena(['scenario', 'run', 'test/fixtures/scenarios/quick-pass.yaml', '--metrics-file', file]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain(`metrics written to ${file}`);
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('arena_runs_total{kind="scenario",verdict="passed"} 1');
    expect(text).toMatch(/arena_faults_injected_total\{type="kill_leader",target="[^"]*",outcome="applied"\} 1/);
    expect(text).toContain('arena_faults_injected_total{type="slow_agent",target="agent-2",outcome="applied"} 1');
    expect(text).toMatch(/arena_score\{dimension="score"\} \d/);
    expect(text).toMatch(/arena_score\{dimension="consistency"\} \d/);
    expect(text).toMatch(/arena_workload_requests_total\{outcome="succeeded"\} \d/);
    expect(readdirSync(join(dir, 'textfile'))).toEqual(['arena.prom']);
    const check = await execa(PROMTOOL, ['check', 'metrics'], { input: text, reject: false });
    expect(check.exitCode, `${check.stdout}${check.stderr}`).toBe(0);
    expect(`${check.stdout}${check.stderr}`.trim()).toBe('');
  });

  it('survival: counted as a survival run with its verdict', async () => {
    const file = join(dir, 'survival.prom');
    const r = await arena([
      'survival',
      '--duration',
      '300ms',
      '--interval',
      '100ms',
      '--seed',
      '3',
      '--warmup',
      '50ms',
      '--cooldown',
      '100ms',
      '--metrics-file',
      file,
    ]);
    expect([0, 1], r.stderr).toContain(r.exitCode);
    const text = readFileSync(file, 'utf8');
    expect(text).toMatch(/arena_runs_total\{kind="survival",verdict="(passed|failed)"\} 1/);
    expect(text).toMatch(/arena_faults_injected_total\{type="\w+",target="[^"]*",outcome="(applied|refused)"\} \d/);
  });

  it('a directory as the file is a usage error before anything runs', async () => {
    mkdirSync(join(dir, 'taken.prom'));
    const r = await arena([
      'scenario',
      'run',
      'test/fixtures/scenarios/quick-pass.yaml',
      '--metrics-file',
      join(dir, 'taken.prom'),
    ]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('--metrics-file');
  });
});
