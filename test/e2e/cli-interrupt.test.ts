import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { arena } from '../helpers/cli.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'arena-interrupt-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function waitFor(child: ReturnType<typeof arena>, pattern: RegExp): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let seen = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      if (pattern.test(seen)) resolve();
    });
    child.then(() => reject(new Error(`exited before ${pattern}: ${seen}`)), reject);
  });
}

describe('interrupting a scenario run', () => {
  it('SIGTERM: reverts both faults, prints and writes the partial report (JSON, JUnit), exits 130', async () => {
    const report = join(dir, 'partial.json');
    const junit = join(dir, 'partial.xml');
    const child = arena([
      'scenario',
      'run',
      'test/fixtures/scenarios/long-faults.yaml',
      '--report',
      report,
      '--junit',
      junit,
      '--json',
    ]);
    await waitFor(child, /action slow-3 slow_agent agent-3 → ok/);
    child.kill('SIGTERM');
    const r = await child;
    expect(r.exitCode).toBe(130);
    expect(r.stderr).toContain('SIGTERM received, stopping and reverting active faults');
    expect(r.stderr).toMatch(/reverted \S+ on agent-2/);
    expect(r.stderr).toMatch(/reverted \S+ on agent-3/);
    expect(r.stderr).toMatch(/interrupted; 2 active fault\(s\) reverted: .*; partial report written to/);
    const doc = JSON.parse(r.stdout);
    expect(doc).toEqual(JSON.parse(readFileSync(report, 'utf8')));
    const s = doc.scenarios[0];
    expect(s.status).toBe('interrupted');
    expect(s.results).toHaveLength(2);
    expect(s.reverted_faults.map((f: any) => f.target).sort()).toEqual(['agent-2', 'agent-3']);
    expect(existsSync(junit)).toBe(true);
    expect(readFileSync(junit, 'utf8')).toContain('<error message=');
  });
});
