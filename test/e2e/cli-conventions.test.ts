/** A Node CLI's conventions, end to end through bin/arena.js: root help, completion, FORCE_COLOR, a closed stdout pipe. */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ARENA_BIN, REPO_ROOT, arena } from '../helpers/cli.js';

describe('arena --help', () => {
  it('shows examples, every exit code and the environment it reads, exit 0', async () => {
    const r = await arena(['--help']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('Examples:\n  $ arena scenario run scenarios/leader-failover.yaml');
    for (const line of [
      /^ {2}0 +passed$/m,
      /^ {2}1 +a gate failed/m,
      /^ {2}2 +invalid input or usage$/m,
      /^ {2}3 +runtime error$/m,
      /^ {2}130 +interrupted/m,
    ])
      expect(r.stdout).toMatch(line);
    expect(r.stdout).toMatch(/FORCE_COLOR +colours even when output is piped/);
    expect(r.stdout).toContain('arena completion bash|zsh|fish');
  });
});

describe('arena completion', () => {
  it('prints a bash script on stdout, exit 0', async () => {
    const r = await arena(['completion', 'bash']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('complete -o default -F _arena_completion arena');
    expect(r.stderr).toBe('');
  });

  it('an unknown shell is a usage error (exit 2) naming the shells it knows, nothing on stdout', async () => {
    const r = await arena(['completion', 'tcsh']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("'tcsh' is invalid");
    expect(r.stderr).toContain('bash, zsh, fish');
    expect(r.stdout).toBe('');
  });
});

describe('colour', () => {
  it('FORCE_COLOR colours piped output; NO_COLOR alone and --no-color do not', async () => {
    const ESC = '\u001b[';
    expect((await arena(['describe'], { env: { NO_COLOR: '', FORCE_COLOR: '1' } })).stdout).toContain(ESC);
    expect((await arena(['describe'])).stdout).not.toContain(ESC);
    expect((await arena(['describe', '--no-color'], { env: { FORCE_COLOR: '1' } })).stdout).not.toContain(ESC);
  });
});

describe('a reader that goes away (`arena … | head`)', () => {
  /** stdout is a pipe whose reading end is closed before the first write: every write meets EPIPE */
  function withReaderGone(args: string[]): Promise<{ code: number | null; stderr: string }> {
    return new Promise((resolve) => {
      const child = spawn('node', [ARENA_BIN, ...args], {
        cwd: REPO_ROOT,
        env: { PATH: process.env.PATH ?? '', NO_COLOR: '1', CI: '1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child.stdout.destroy();
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d));
      child.on('close', (code) => resolve({ code, stderr }));
    });
  }

  it('--help: no EPIPE crash, exit 0', async () => {
    const r = await withReaderGone(['--help']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  });

  it('a scenario run still finishes: its exit code, its report file, nothing on stderr about the pipe', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'arena-epipe-'));
    try {
      const report = join(dir, 'run.json');
      const r = await withReaderGone([
        'scenario',
        'run',
        'test/fixtures/scenarios/quick-pass.yaml',
        '--json',
        '--report',
        report,
      ]);
      expect(r.stderr).not.toMatch(/EPIPE|unexpected error/);
      expect(r.code).toBe(0);
      const written = JSON.parse(readFileSync(report, 'utf8')) as {
        scenarios: Array<{ name: string; status: string }>;
      };
      expect(written.scenarios.map((s) => [s.name, s.status])).toEqual([['quick-pass', 'passed']]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
