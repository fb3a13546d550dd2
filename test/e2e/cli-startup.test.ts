import { describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { ARENA_BIN, REPO_ROOT } from '../helpers/cli.js';

const TRACE = 'test/fixtures/trace-imports.mjs';

function tracedImports(args: string[], env: Record<string, string> = {}) {
  return execa('node', ['--import', `./${TRACE}`, ARENA_BIN, ...args], {
    cwd: REPO_ROOT,
    reject: false,
    extendEnv: false,
    env: { PATH: process.env.PATH ?? '', NO_COLOR: '1', CI: '1', ...env },
  });
}

const imported = (stderr: string) => new Set([...stderr.matchAll(/^IMPORT (\S+)$/gm)].map((m) => m[1]!.split('/')[0]));

describe('start-up path', () => {
  it('`arena scenario validate` loads neither ink nor react', async () => {
    const r = await tracedImports(['scenario', 'validate', 'test/fixtures/scenarios/quick-pass.yaml']);
    expect(r.exitCode).toBe(0);
    const names = imported(r.stderr);
    expect(r.stderr).toMatch(/^VENDOR commander$/m); // the trace works
    expect(names.has('ink')).toBe(false);
    expect(names.has('react')).toBe(false);
    // nor any other command's dependencies; yaml, zod and commander are one bundled file each (dist/vendor/), not the packages' many
    for (const heavy of ['chalk', 'cli-table3', 'simple-statistics', 'better-sqlite3', 'pg', 'yaml', 'zod', 'commander', '@modelcontextprotocol/sdk']) {
      expect(names.has(heavy), heavy).toBe(false);
    }
    // nor node:crypto, ~2 ms to load (action ids use Web Crypto; the compile cache names files with FNV-1a)
    expect(r.stderr).toMatch(/^BUILTIN fs$/m);
    expect(r.stderr).not.toMatch(/^BUILTIN crypto$/m);
  });

  it('`arena --version` imports no package at all and prints the version', async () => {
    const r = await tracedImports(['--version']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/^\d+\.\d+\.\d+/);
    expect(imported(r.stderr).size).toBe(0);
  });

  it('a plain-mode run does not load ink either (no terminal, CI set)', async () => {
    const r = await tracedImports(['scenario', 'run', 'test/fixtures/scenarios/expect-miss.yaml']);
    expect(r.exitCode).toBe(1);
    expect(imported(r.stderr).has('ink')).toBe(false);
  });
});
