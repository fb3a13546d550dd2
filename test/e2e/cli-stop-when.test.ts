/**
 * `--stop-when` on survival and `config.stop_when` in scenario files through the built CLI, on the
 * embedded target: a tripped condition is exit 1 with the reason; bad conditions, and conditions the
 * target cannot evaluate, are exit 2 before anything is injected.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SurvivalReport } from '../../src/arena/report.js';
import { arena } from '../helpers/cli.js';
import { freePorts } from '../helpers/process-fleet.js';

const WORKER = fileURLToPath(new URL('../fixtures/process-fleet/worker.mjs', import.meta.url));

let dir = '';
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'arena-stop-when-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('--stop-when and config.stop_when', { timeout: 60_000 }, () => {
  it('survival: an inline condition that trips ends the run early, exit 1, stopped_by in the JSON', async () => {
    const result = await arena([
      'survival',
      '--duration',
      '30s',
      '--interval',
      '300ms',
      '--actions',
      'kill_agent,pause_agent',
      '--seed',
      '3',
      '--stop-when',
      '{availability_below: {value: 99.9, window: 1s}}',
      '--json',
    ]);
    expect(result.exitCode, result.stderr).toBe(1);
    const report = (JSON.parse(result.stdout) as { survival: SurvivalReport }).survival;
    expect(report.status).toBe('failed');
    expect(report.stopped_by).toMatchObject({ kind: 'availability_below' });
    // the 30 s run ended long before its end (a safety net, not a timing claim)
    expect(report.elapsed_ms).toBeLessThan(25_000);
    expect(result.stderr).toMatch(/survival: stopped by availability_below 99\.9% over 1000ms/);
  });

  it('survival: @FILE reads the conditions from a file; a bad one is exit 2 naming the key, nothing run', async () => {
    const file = join(dir, 'stop.yaml');
    writeFileSync(file, 'availability_below: { value: 180, window: 1s }\n');
    const bad = await arena(['survival', '--duration', '2s', '--stop-when', `@${file}`, '--json']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toMatch(/availability_below\.value: must be a percentage from 0 to 100/);
    expect(bad.stdout).toBe('');
    const missing = await arena(['survival', '--duration', '2s', '--stop-when', `@${join(dir, 'nope.yaml')}`]);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toMatch(/cannot read .*nope\.yaml/);
    const syntax = await arena(['survival', '--duration', '2s', '--stop-when', '{availability_below: ']);
    expect(syntax.exitCode).toBe(2);
    expect(syntax.stderr).toMatch(/--stop-when: not YAML or JSON/);
  });

  it('a condition the target cannot evaluate (spend_above, no LLM proxy in front of its agents) is exit 2 before anything is injected', async () => {
    const [port] = await freePorts(1);
    const target = join(dir, 'no-llm.yaml');
    writeFileSync(
      target,
      [
        'kind: process',
        'name: no-llm',
        'start:',
        `  command: node ${JSON.stringify(WORKER)} w1 ${port}`,
        `  ready: { http: "http://127.0.0.1:${port}/", timeout: 15s }`,
        'agents:',
        `  - { id: w1, pid: { port: ${port} }, health: { http: "http://127.0.0.1:${port}/" } }`,
        '',
      ].join('\n'),
    );
    const file = join(dir, 'spend.yaml');
    writeFileSync(
      file,
      'name: spend\nconfig: { stop_when: { spend_above: { tokens: 1000 } } }\nactions:\n  - action: { type: pause_agent, target_id: w1 }\n',
    );
    const result = await arena(['scenario', 'run', file, '--target', target, '--json']);
    expect(result.exitCode, result.stderr).toBe(2);
    expect(result.stderr).toMatch(/spend_above 1000 tokens: this target has no LLM proxy/);
    expect(result.stdout).not.toMatch(/"success":\s*true/);
  });

  it('scenario validate names a bad stop_when or max_affected with its line', async () => {
    const file = join(dir, 'bad.yaml');
    writeFileSync(
      file,
      'name: bad\nconfig:\n  max_affected: "0%"\n  stop_when:\n    prometheus: { url: "http://127.0.0.1:9090", query: up }\nactions:\n  - action: { type: kill_leader }\n',
    );
    const result = await arena(['scenario', 'validate', file]);
    expect(result.exitCode).toBe(2);
    const out = `${result.stdout}${result.stderr}`;
    expect(out).toMatch(/bad\.yaml:3:\d+ config\.max_affected must be a whole number of agents ≥ 1 or a percentage/);
    expect(out).toMatch(/bad\.yaml:5:\d+ config\.stop_when\.prometheus give exactly one of above or below/);
  });
});
