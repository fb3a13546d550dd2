import { describe, expect, it } from 'vitest';
import { arena } from '../helpers/cli.js';

describe('arena (basics)', () => {
  it('prints help and exits 0', async () => {
    const r = await arena(['--help']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('Usage: arena');
  });

  it('prints the package version', async () => {
    const r = await arena(['--version']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('maps an unknown option to exit 2 with a usage hint', async () => {
    const r = await arena(['--no-such-flag']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("unknown option '--no-such-flag'");
  });
});
