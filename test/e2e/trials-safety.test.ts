/**
 * `arena trials` safety flags as a user runs them (bin/arena.js against dist, the embedded target):
 * --dry-run plans and runs nothing, --stop-when ends the trials early (exit 1, JUnit case), and a
 * trials run is in the run directory, so `arena ps` lists it and `arena stop` ends it (stopped, exit 130).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DryRunPlan } from '../../src/arena/dry-run/types.js';
import type { TrialsReport } from '../../src/arena/trials/report.js';
import { REPO_ROOT, arena } from '../helpers/cli.js';
import { waitFor } from '../helpers/process-fleet.js';

const OUTAGE = fileURLToPath(new URL('../../scenarios/llm-outage.yaml', import.meta.url));
let dir = '';
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'arena-trials-safety-'));
});
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = '';
});

describe('arena trials --dry-run', () => {
  it('prints every block in its seeded order with its faults, runs no trial (exit 0)', async () => {
    const result = await arena(
      ['trials', '--scenario', OUTAGE, '--trials', '3', '--seed', '9', '--dry-run', '--json'],
      {
        env: { ARENA_STATE_DIR: dir },
        timeout: 60_000,
      },
    );
    expect(result.exitCode, result.stderr).toBe(0);
    const [plan] = (JSON.parse(result.stdout) as { plans: DryRunPlan[] }).plans;
    expect(plan!.kind).toBe('trials');
    expect(plan!.injected).toBe(0);
    expect(plan!.trials!.blocks).toHaveLength(6);
    expect(plan!.trials!.blocks.filter((b) => b.faults && b.faults.length > 0)).toHaveLength(3);
    expect(result.stderr).not.toMatch(/trials: \d+\/\d+/); // no trial ran
  });

  it('exit 2 when the scenario names an agent the target does not have', async () => {
    const bad = join(dir, 'ghost.yaml');
    writeFileSync(bad, 'name: ghost\nactions:\n  - action: { type: llm_failure, target_id: ghost }\n');
    const result = await arena(['trials', '--scenario', bad, '--trials', '2', '--k', '1', '--dry-run'], {
      env: { ARENA_STATE_DIR: dir },
      timeout: 60_000,
    });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/ghost/);
  });

  it('exit 2, dry run or not, for an --intensity the embedded target cannot apply; no trial runs', async () => {
    const quiet = join(REPO_ROOT, 'scenarios', 'quiet-llm.yaml');
    for (const extra of [['--dry-run'], []]) {
      const result = await arena(
        ['trials', '--scenario', quiet, '--intensity', '0.5', '--trials', '2', '--k', '1', ...extra],
        { env: { ARENA_STATE_DIR: dir }, timeout: 60_000 },
      );
      expect(result.exitCode, result.stderr).toBe(2);
      expect(result.stderr).toContain('at --intensity 0.5');
      expect(result.stderr).toContain('it takes no probability');
      expect(result.stderr).not.toMatch(/trials: \d+\/\d+/);
    }
  });
});

describe('arena trials --stop-when', () => {
  it('a trip ends the trials: stopped_by in the report, a JUnit failure case, exit 1', async () => {
    const junit = join(dir, 'trials.xml');
    const result = await arena(
      [
        'trials',
        '--scenario',
        OUTAGE,
        '--trials',
        '50',
        '--k',
        '1',
        '--seed',
        '3',
        '--stop-when',
        '{spend_above: {tokens: 1}}',
        '--junit',
        junit,
        '--json',
      ],
      { env: { ARENA_STATE_DIR: dir }, timeout: 120_000 },
    );
    expect(result.exitCode, result.stderr).toBe(1);
    const report = JSON.parse(result.stdout) as TrialsReport;
    expect(report.status).toBe('failed');
    expect(report.stopped_by).toMatchObject({ kind: 'spend_above' });
    const task = report.trials.tasks[0]!;
    expect(task.clean.n + task.faulted!.n).toBeLessThan(100);
    expect(readFileSync(junit, 'utf8')).toMatch(
      /<testcase[^>]*name="stop condition spend_above[^"]*"[^>]*>\s*<failure/,
    );
  });

  it('a bad --stop-when is exit 2 before anything runs', async () => {
    const result = await arena(['trials', '--stop-when', '{nothing: 1}'], { env: { ARENA_STATE_DIR: dir } });
    expect(result.exitCode).toBe(2);
  });
});

describe('arena trials in the run directory', () => {
  it('arena ps lists it and arena stop ends it: report status stopped, exit 130', async () => {
    const env = { ARENA_STATE_DIR: dir };
    const reportFile = join(dir, 'stopped.json');
    const run = arena(
      ['trials', '--scenario', OUTAGE, '--trials', '2000', '--k', '1', '--seed', '4', '--report', reportFile, '--json'],
      { env, timeout: 120_000 },
    );
    let stderr = '';
    run.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    await waitFor(() => /trials: 2\//.test(stderr), 60_000, `two trials (stderr so far: ${stderr})`);
    const ps = await arena(['ps', '--json'], { env });
    expect(ps.exitCode, ps.stderr).toBe(0);
    const listed = (JSON.parse(ps.stdout) as { runs: Array<{ run_id: string; pid: number; command: string }> }).runs;
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ command: 'trials', pid: run.pid });
    const stop = await arena(['stop', listed[0]!.run_id], { env, timeout: 60_000 });
    expect(stop.exitCode, stop.stderr).toBe(0);
    const result = await run;
    expect(result.exitCode, stderr).toBe(130);
    const report = JSON.parse(readFileSync(reportFile, 'utf8')) as TrialsReport;
    expect(report.status).toBe('stopped');
    const after = await arena(['ps', '--json'], { env });
    expect((JSON.parse(after.stdout) as { runs: unknown[] }).runs).toEqual([]);
  });
});
