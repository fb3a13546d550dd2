import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { arena } from '../helpers/cli.js';

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('arena describe', () => {
  it('prints agents, DAG and strategy as a table', async () => {
    const r = await arena(['describe']);
    expect(r.exitCode).toBe(0);
    for (const text of [
      'agent-1',
      'agent-2',
      'agent-3',
      'orchestrator-1',
      'orchestrator-2',
      'leader',
      'standby',
      'fetch→plan',
      'recall→answer',
      'supervisor',
      'lease 300ms',
    ]) {
      expect(r.stdout).toContain(text);
    }
  });

  it('prints one JSON document with --json', async () => {
    const r = await arena(['describe', '--json']);
    expect(r.exitCode).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.schema_version).toBe(1);
    expect(doc.agents).toEqual([
      { id: 'agent-1', role: 'leader', status: 'running', restarts: 0 },
      { id: 'agent-2', role: 'worker', status: 'running', restarts: 0 },
      { id: 'agent-3', role: 'worker', status: 'running', restarts: 0 },
      { id: 'orchestrator-1', role: 'orchestrator', status: 'running', restarts: 0 },
      { id: 'orchestrator-2', role: 'standby', status: 'running', restarts: 0 },
    ]);
    expect(doc.dag.nodes).toEqual(['fetch', 'plan', 'tool', 'recall', 'answer']);
    expect(doc.dag.edges).toHaveLength(5);
    expect(doc.strategy.election).toEqual({ enabled: true, lease_ms: 300, renew_interval_ms: 50 });
    expect(doc.strategy_source).toBe('built-in default');
  });

  it('describes the strategy from --strategy', async () => {
    const r = await arena(['describe', '--json', '--strategy', 'strategies/recovery-off.yaml']);
    expect(r.exitCode).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.strategy.supervisor.enabled).toBe(false);
    expect(doc.strategy.dag.recovery).toBe('fail_fast');
  });

  it('rejects an invalid strategy file with exit 2, naming every problem', async () => {
    dir = mkdtempSync(join(tmpdir(), 'arena-describe-'));
    const file = join(dir, 'bad.yaml');
    writeFileSync(file, 'election:\n  lease_ms: soon\nsupervisr: {}\n');
    const r = await arena(['describe', '--strategy', file]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('election.lease_ms: must be a duration');
    expect(r.stderr).toContain('supervisr: unknown section');
    // each problem names the file's line:column
    expect(r.stderr).toContain(`${file}:2:13 election.lease_ms: must be a duration`);
    expect(r.stderr).toContain(`${file}:3:1 supervisr: unknown section`);
    expect(r.stdout).toBe('');
  });

  it('names a missing strategy file', async () => {
    const r = await arena(['describe', '--strategy', 'nope.yaml']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('nope.yaml');
    expect(r.stderr).toContain('does not exist');
  });

  it('refuses a directory as the strategy file', async () => {
    const r = await arena(['describe', '--strategy', 'strategies']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/strategy file '.*strategies' is not a file/);
    expect(r.stderr).not.toContain('EISDIR');
  });
});
