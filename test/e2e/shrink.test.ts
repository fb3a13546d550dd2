import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { arena } from '../helpers/cli.js';

const FIXTURE = 'test/fixtures/shrink/two-fault-bug.yaml';
const OFF = 'strategies/recovery-off.yaml';
// generous safety nets: one candidate run takes about a second on an idle machine
const LONG = 600_000;
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'arena-shrink-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface ScenarioDoc {
  scenarios: Array<{ status: string; results: Array<{ label: string; met: boolean | null }> }>;
}

describe('arena shrink', () => {
  it(
    'shrinks a six-fault failing run to the two faults its failure needs, and the output fails the same way',
    async () => {
      const report = join(dir, 'report.json');
      const run = await arena(['scenario', 'run', FIXTURE, '--strategy', OFF, '--report', report, '--json']);
      expect(run.exitCode).toBe(1);

      const out = join(dir, 'min.yaml');
      const shrink = await arena(['shrink', report, '--out', out, '--json'], { timeout: LONG });
      expect(shrink.exitCode, shrink.stderr).toBe(0);
      const doc = JSON.parse(shrink.stdout);
      expect(doc.schema_version).toBe(1);
      expect(doc.signature.failures).toEqual(['expectation:slow-3']);
      expect(doc.original_faults).toBe(6);
      expect(doc.minimal_faults).toBe(2);
      expect(doc.faults.map((f: { label: string }) => f.label)).toEqual(['kill-3', 'slow-3']);
      expect(doc.faults[0]).toMatchObject({ type: 'kill_agent', target_id: 'agent-3' });
      expect(doc.runs).toBeGreaterThan(0);
      expect(doc.certificate).toHaveLength(2);
      for (const c of doc.certificate) {
        expect(c.fail_rate_without).toBe(0);
        expect(c.interval[0]).toBe(0);
        expect(c.interval[1]).toBeLessThan(1);
      }
      expect(shrink.stderr).toMatch(/search · candidate \d+ · size \d+ · runs \d+/);

      expect(readFileSync(out, 'utf8')).toContain('seed: 11');
      const again = await arena(['scenario', 'run', out, '--strategy', OFF, '--json']);
      expect(again.exitCode).toBe(1);
      const s = (JSON.parse(again.stdout) as ScenarioDoc).scenarios[0]!;
      expect(s.status).toBe('failed');
      expect(s.results.filter((r) => r.met === false).map((r) => r.label)).toEqual(['slow-3']);
    },
    LONG,
  );

  it('refuses a passing report and a non-report with exit 2, before running anything', async () => {
    const passing = join(dir, 'pass.json');
    writeFileSync(
      passing,
      JSON.stringify({ schema_version: 1, scenarios: [{ name: 'ok', status: 'passed', seed: 1, results: [] }] }),
    );
    const r = await arena(['shrink', passing]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/no failed scenario/);
    const junk = join(dir, 'junk.json');
    writeFileSync(junk, '[1, 2]');
    const j = await arena(['shrink', junk]);
    expect(j.exitCode).toBe(2);
    expect(j.stderr).toMatch(/not a report/);
    expect((await arena(['shrink', join(dir, 'missing.json')])).exitCode).toBe(2);
  });

  it(
    'says the failure did not reproduce (exit 1) when the run passes on the target now',
    async () => {
      // the same failing report, replayed with recovery on: the supervisor restarts agent-3, so slowing it succeeds
      const report = join(dir, 'report-off.json');
      await arena(['scenario', 'run', FIXTURE, '--strategy', OFF, '--report', report, '--json']);
      const r = await arena(
        ['shrink', report, '--strategy', 'strategies/default.yaml', '--out', join(dir, 'no.yaml')],
        {
          timeout: LONG,
        },
      );
      expect(r.exitCode, r.stderr).toBe(1);
      expect(r.stderr).toMatch(/did not reproduce in \d+ runs/);
    },
    LONG,
  );

  it(
    'shrinks a survival run from its seed, without a report file, and certifies a single remaining fault',
    async () => {
      const out = join(dir, 'survival-min.yaml');
      // a short recovery deadline: with recovery off, a fault never recovers and each run would wait out the default 10s
      const flags = [
        '--duration',
        '1s',
        '--interval',
        '500ms',
        '--recovery-deadline',
        '500ms',
        '--strategy',
        OFF,
        '--max-runs',
        '2',
      ];
      // seed 5 draws mcp_disconnect then memory_corrupt from the default mix (tool_fault in it): with recovery
      // off the corrupted memory is never restored
      const r = await arena(['shrink', '--survival', '--seed', '5', ...flags, '--out', out, '--json'], {
        timeout: LONG,
      });
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/running survival --seed 5/);
      const doc = JSON.parse(r.stdout);
      expect(doc.signature.failures.length).toBeGreaterThan(0);
      expect(doc.minimal_faults).toBeGreaterThan(0);
      // the survival run that found the failure counts as a run
      expect(doc.runs).toBeGreaterThan(doc.candidates);
      // every remaining fault has a measured certificate, the last one too (runs without any fault)
      expect(doc.certificate).toHaveLength(doc.minimal_faults);
      for (const c of doc.certificate) {
        expect(c.runs).toBeGreaterThan(0);
        expect(c.fail_rate_without).toBeLessThan(0.5);
      }
      expect(readFileSync(out, 'utf8')).toContain('arena shrink --survival --seed 5');
    },
    LONG,
  );

  it(
    '--survival: a seed that passes says so (exit 1) after one run; bad flag combinations are refused (exit 2)',
    async () => {
      const passing = await arena(
        ['shrink', '--survival', '--seed', '5', '--duration', '1s', '--interval', '500ms', '--actions', 'slow_agent'],
        { timeout: LONG },
      );
      expect(passing.exitCode, passing.stderr).toBe(1);
      expect(passing.stderr).toMatch(/survival --seed 5 did not fail on this target \(status passed, 1 run\)/);
      const noSeed = await arena(['shrink', '--survival']);
      expect(noSeed.exitCode).toBe(2);
      expect(noSeed.stderr).toMatch(/--survival needs --seed N/);
      const both = await arena(['shrink', 'report.json', '--survival', '--seed', '1']);
      expect(both.exitCode).toBe(2);
      expect(both.stderr).toMatch(/not both/);
      const stray = await arena(['shrink', 'report.json', '--duration', '1s']);
      expect(stray.exitCode).toBe(2);
      expect(stray.stderr).toMatch(/--duration only apply with --survival/);
      const none = await arena(['shrink']);
      expect(none.exitCode).toBe(2);
      expect(none.stderr).toMatch(/--survival --seed N/);
    },
    LONG,
  );

  it(
    'shows each candidate as it is tried, and Ctrl-C names the smallest failing set found so far (exit 130)',
    async () => {
      const report = join(dir, 'report-interrupt.json');
      await arena(['scenario', 'run', FIXTURE, '--strategy', OFF, '--report', report, '--json']);
      const child = arena(['shrink', report, '--out', join(dir, 'never.yaml')], { timeout: LONG });
      await new Promise<void>((resolve, reject) => {
        let seen = '';
        child.stderr!.on('data', (chunk: Buffer) => {
          seen += chunk.toString();
          // reproduced, and the search is trying its first subset
          if (/still fails with 6 of 6/.test(seen) && /search · candidate \d+ .* trying \d+: /.test(seen)) resolve();
        });
        child.catch(reject);
      });
      child.kill('SIGINT');
      const r = await child;
      expect(r.exitCode, r.stderr).toBe(130);
      expect(r.stderr).toMatch(
        /reproduce · candidate 1 · size 6 · runs 0 · trying 6: slow-1, kill-3, pause-2, resume-2 \(\+2 more\)/,
      );
      expect(r.stderr).toMatch(
        /interrupted after \d+ run\(s\); smallest failing set so far \(\d of 6, not shown minimal\): \S+/,
      );
      expect(r.stderr).toContain('nothing written');
      expect(existsSync(join(dir, 'never.yaml'))).toBe(false);
    },
    LONG,
  );
});
