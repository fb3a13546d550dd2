/** A Node CLI's conventions, end to end through bin/arena.js: root help, completion, FORCE_COLOR. */
import { describe, expect, it } from 'vitest';
import { arena } from '../helpers/cli.js';

describe('arena --help', () => {
  it('shows examples, every exit code and the environment it reads, exit 0', async () => {
    const r = await arena(['--help']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('Examples:\n  $ arena scenario run scenarios/leader-failover.yaml');
    for (const line of [/^ {2}0 +passed$/m, /^ {2}1 +a gate failed/m, /^ {2}2 +invalid input or usage$/m, /^ {2}3 +runtime error$/m, /^ {2}130 +interrupted/m]) expect(r.stdout).toMatch(line);
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
