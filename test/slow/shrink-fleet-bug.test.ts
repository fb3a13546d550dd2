/**
 * The shipped shrink example (docs/guides/shrink.md): examples/fleet-bug under real pm2-runtime loses
 * acknowledged jobs only when a worker is killed within 2 s of being resumed from a pause. Survival seed
 * 17 (23 faults) trips it once; `arena shrink --survival` must come back with exactly that pause and
 * that kill, a certificate that each is needed, and a scenario that fails the same way. The failing run is
 * the saved report of one (test/fixtures/shrink/fleet-bug-seed17.json, what `arena survival … --report`
 * wrote): shrink reproduces it by a sequential test, where `--survival` would stake all on one run.
 * bin/arena.js runs against dist: build first. A copy on a free base port, so 7000-7103 need not be free.
 * Minutes of real fleet runs: not in `npm test`; run it with `npm run test:slow`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { arena } from '../helpers/cli.js';
import { exampleFleetBugCopy } from '../helpers/example-fleet.js';
import { processesMatching } from '../helpers/process-fleet.js';

// `arena survival --seed 17 --duration 9s --interval 400ms --actions kill_agent,pause_agent,slow_agent
// --cooldown 3s --target examples/fleet-bug/target.yaml --report …`, a run that failed (docs/guides/shrink.md)
const REPORT = 'test/fixtures/shrink/fleet-bug-seed17.json';
// a safety net, not a timing claim: about 40 runs of 5-15 s each on a busy 2-core machine
const LONG = 3_600_000;
let root = '';
let fleetBug = '';
let env: Record<string, string> = {};

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'arena-fleet-bug-'));
  ({ dir: fleetBug, env } = await exampleFleetBugCopy(root, 'copy'));
});
afterAll(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

interface ShrinkDoc {
  signature: { failures: string[] };
  original_faults: number;
  minimal_faults: number;
  faults: Array<{ type: string; target_id?: string; label: string }>;
  runs: number;
  certificate: Array<{ fault: string; fail_rate_without: number; runs: number; interval: [number, number] }>;
}

describe('arena shrink on the planted-bug fleet', () => {
  it(
    'shrinks a failing 23-fault survival to the planted pause and kill, and the scenario fails the same way',
    async () => {
      const target = join(fleetBug, 'target.yaml');
      const out = join(root, 'min.yaml');
      const shrink = await arena(['shrink', REPORT, '--target', target, '--out', out, '--json'], {
        env,
        timeout: LONG,
      });
      expect(shrink.exitCode, shrink.stderr).toBe(0);
      const doc = JSON.parse(shrink.stdout) as ShrinkDoc;
      expect(doc.signature.failures).toEqual(['invariant:no-lost-jobs']);
      expect(doc.original_faults).toBeGreaterThanOrEqual(20);
      expect(doc.faults.map((f) => [f.label, f.type, f.target_id])).toEqual([
        ['t15-pause-agent', 'pause_agent', 'worker-2'],
        ['t17-kill-agent', 'kill_agent', 'worker-2'],
      ]);
      expect(doc.certificate.map((c) => c.fault)).toEqual(['t15-pause-agent', 't17-kill-agent']);
      for (const c of doc.certificate) {
        // without the fault the failure is gone: no failed run, and an interval that excludes "fails as before"
        expect(c.fail_rate_without).toBe(0);
        expect(c.interval[1]).toBeLessThan(0.6);
      }
      expect(processesMatching(join(root, 'copy'))).toEqual([]);

      const again = await arena(['scenario', 'run', out, '--target', target, '--json'], { env, timeout: LONG });
      expect(again.exitCode, again.stderr).toBe(1);
      const s = JSON.parse(again.stdout).scenarios[0];
      expect(s.status).toBe('failed');
      expect(s.score.measurements.consistency.failed_checks.map((c: { name: string }) => c.name)).toEqual([
        'no-lost-jobs',
      ]);
    },
    LONG,
  );
});
