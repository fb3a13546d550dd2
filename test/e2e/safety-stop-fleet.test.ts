/**
 * Issue 35 (DESIGN §16), done-when: on the example fleet (examples/fleet) with pm2's restarts off, a
 * scenario that kills every worker with `stop_when: {availability_below: {value: 80, window: 2s}}`
 * and a 20 s cooldown stops within 3 s of availability crossing the line, exits 1 naming the
 * condition (JSON, JUnit, the plain lines), and leaves nothing stopped or running. The fleet is a
 * copy on a free base port (ARENA_EXAMPLE_PORT) (bin/arena.js runs dist: build first).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScenarioReport } from '../../src/arena/report.js';
import { arena } from '../helpers/cli.js';
import { exampleFleetCopy } from '../helpers/example-fleet.js';
import { processesMatching } from '../helpers/process-fleet.js';

let root = '';
let fleetDir = '';
let fleetEnv: Record<string, string> = {};

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'arena-safety-fleet-'));
  ({ dir: fleetDir, env: fleetEnv } = await exampleFleetCopy(root, 'fleet'));
});

afterAll(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

describe('stop_when on the example fleet', () => {
  it('killing every worker with restarts off trips availability_below within 3 s: exit 1, the reason everywhere, nothing left behind', async () => {
    // the shipped example (examples/fleet/scenarios/stop-on-outage.yaml), as a user runs it
    const scenario = join(fleetDir, 'scenarios', 'stop-on-outage.yaml');
    const junit = join(root, 'junit.xml');
    const result = await arena(
      ['scenario', 'run', scenario, '--target', join(fleetDir, 'target-no-restart.yaml'), '--json', '--junit', junit],
      { env: fleetEnv, timeout: 120_000 },
    );
    expect(result.exitCode, result.stderr).toBe(1);
    // pm2 and every worker are gone, nothing is stopped
    expect(processesMatching(fleetDir)).toEqual([]);
    const report = (JSON.parse(result.stdout) as { scenarios: ScenarioReport[] }).scenarios[0]!;
    expect(report.status).toBe('failed');
    expect(report.results.map((r) => [r.label, r.result.success])).toEqual([
      ['kill-1', true],
      ['kill-2', true],
      ['kill-3', true],
    ]);
    const stopped = report.stopped_by!;
    expect(stopped).toMatchObject({ kind: 'availability_below', condition: 'availability_below 80% over 2000ms' });
    expect(stopped.value).toBeLessThan(80);
    // availability was at 100% until the workers died: it crossed the line after the first kill, so
    // the time from that kill to the trip bounds the time from the crossing to the trip
    const firstKill = report.results[0]!.at_ms;
    const sinceKill = stopped.at_ms - firstKill;
    expect(sinceKill, `tripped ${sinceKill} ms after the first kill (${stopped.reason})`).toBeLessThan(3000);
    // the 20 s cooldown did not run: the run ended soon after the trip
    expect(report.duration_ms - stopped.at_ms).toBeLessThan(15_000);
    expect(result.stderr).toMatch(
      /stopped by availability_below 80% over 2000ms at \d+\.\d+s: availability [\d.]+% over/,
    );
    expect(result.stderr).toMatch(/fleet-stop-on-outage: stopped by availability_below/);
    const xml = readFileSync(junit, 'utf8');
    expect(xml).toContain('name="stop condition availability_below 80% over 2000ms"');
    expect(xml).toMatch(
      /<failure message="stopped by availability_below 80% over 2000ms at [^"]+" type="stop_condition">/,
    );
  }, 150_000);
});
