import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { arena } from '../helpers/cli.js';

const FX = 'test/fixtures/scenarios';
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'arena-scenario-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('arena scenario run: strategies, saved scenarios, replay', () => {
  it('rejects bad flags with exit 2', async () => {
    expect((await arena(['scenario', 'run', `${FX}/quick-pass.yaml`, '--min-score', '120'])).exitCode).toBe(2);
    expect((await arena(['scenario', 'run', `${FX}/quick-pass.yaml`, '--seed', 'abc'])).exitCode).toBe(2);
    const strategy = join(dir, 'bad-strategy.yaml');
    writeFileSync(strategy, 'supervisor: { enabled: maybe }\n');
    const r = await arena(['scenario', 'run', `${FX}/quick-pass.yaml`, '--strategy', strategy]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('supervisor.enabled');
  });

  it('a scenario saved by survival --save-scenario validates and runs', async () => {
    const saved = join(dir, 'from-survival.yaml');
    const s = await arena([
      'survival',
      '--duration',
      '300ms',
      '--interval',
      '100ms',
      '--seed',
      '12',
      '--save-scenario',
      saved,
      '--json',
    ]);
    expect(s.exitCode).toBe(0);
    const v = await arena(['scenario', 'validate', saved]);
    expect(v.exitCode).toBe(0);
    const run = await arena(['scenario', 'run', saved, '--json']);
    expect([0, 1]).toContain(run.exitCode);
    const doc = JSON.parse(run.stdout);
    const original = JSON.parse(s.stdout).survival.timeline.map((t: any) => [t.action.type, t.action.target_id]);
    expect(doc.scenarios[0].results.map((o: any) => [o.result.action.type, o.result.action.target_id])).toEqual(
      original,
    );
  });

  it('replays a scenario report as that scenario: labels, expectations, window and gate', async () => {
    const report = join(dir, 'quick.json');
    const first = await arena(['scenario', 'run', `${FX}/quick-pass.yaml`, '--report', report, '--json']);
    expect(first.exitCode).toBe(0);
    const original = JSON.parse(first.stdout).scenarios[0];
    const r = await arena(['replay', report, '--json']);
    expect(r.exitCode).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.survival).toBeUndefined();
    const replayed = doc.scenarios[0];
    expect(replayed.replay_of).toMatchObject({ kind: 'scenario', name: 'quick-pass', seed: 7 });
    expect(replayed.results.map((o: any) => [o.label, o.result.action.type, o.expectation])).toEqual(
      original.results.map((o: any) => [o.label, o.result.action.type, o.expectation]),
    );
    expect(replayed.window).toEqual(original.window);
    expect(replayed.gate?.min_score).toBe(original.gate?.min_score);
  });
});
