import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { arena } from '../helpers/cli.js';

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

describe('arena survival: replay, gate, bad input, interrupt', () => {
  it('replays a saved report exactly', async () => {
    const report = join(dir, 'to-replay.json');
    const first = await arena([
      'survival',
      '--duration',
      '300ms',
      '--interval',
      '100ms',
      '--seed',
      '9',
      '--report',
      report,
      '--json',
    ]);
    expect(first.exitCode).toBe(0);
    const again = await arena(['replay', report, '--json']);
    if (again.exitCode !== 0) console.error(again.stderr);
    expect(again.exitCode).toBe(0);
    const doc = JSON.parse(again.stdout);
    expect(doc.survival.replay_of).toMatchObject({ kind: 'survival', seed: 9 });
    expect(again.stderr).toMatch(/^replay: \d+ action\(s\) of survival \(seed 9\)$/m);
    expect(sequence(doc)).toEqual(sequence(JSON.parse(first.stdout)));
  });

  it('fails the --min-score gate with exit 1 and says by how much', async () => {
    const r = await arena([
      'survival',
      '--duration',
      '400ms',
      '--interval',
      '100ms',
      '--seed',
      '5',
      '--actions',
      'kill_agent,kill_leader',
      '--strategy',
      'strategies/recovery-off.yaml',
      '--recovery-deadline',
      '300ms',
      '--min-score',
      '99.9',
    ]);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/survival: score [\d.]+ is [\d.]+ below the minimum 99\.9/);
  });

  it('rejects bad options with exit 2 and a clear message', async () => {
    const bad = await arena(['survival', '--actions', 'kill_agent,explode', '--duration', '100ms']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('unknown action type explode');
    const duration = await arena(['survival', '--duration', 'soon']);
    expect(duration.exitCode).toBe(2);
    expect(duration.stderr).toContain("option '--duration <duration>' argument 'soon' is invalid");
    const seed = await arena(['survival', '--seed', '-1']);
    expect(seed.exitCode).toBe(2);
    const replay = await arena(['replay', join(dir, 'missing.json')]);
    expect(replay.exitCode).toBe(2);
    expect(replay.stderr).toContain('cannot read report');
  });

  it('on SIGINT reverts the active faults, writes the partial report and exits 130', async () => {
    const report = join(dir, 'interrupted.json');
    const child = arena([
      'survival',
      '--duration',
      '60s',
      '--interval',
      '2s',
      '--actions',
      'pause_agent,slow_agent,tool_timeout',
      '--seed',
      '2',
      '--report',
      report,
    ]);
    await new Promise<void>((resolve, reject) => {
      let seen = '';
      child.stderr!.on('data', (chunk: Buffer) => {
        seen += chunk.toString();
        if (/action #0 .* → ok/.test(seen)) resolve();
      });
      child.catch(reject);
    });
    child.kill('SIGINT');
    const r = await child;
    expect(r.exitCode).toBe(130);
    expect(r.stderr).toContain('SIGINT received, stopping and reverting active faults');
    expect(r.stderr).toMatch(/reverted (pause|slow|tool)\S* on (agent|orchestrator)-\d/);
    expect(r.stderr).toMatch(/interrupted; 1 active fault\(s\) reverted: \S+ on \S+; partial report written to/);
    expect(existsSync(report)).toBe(true);
    const doc = JSON.parse(readFileSync(report, 'utf8'));
    expect(doc.survival.status).toBe('interrupted');
    expect(doc.survival.actions_run).toBe(1);
    expect(doc.survival.reverted_faults).toHaveLength(1);
    expect(r.stdout).toContain('interrupted');
  });
});
