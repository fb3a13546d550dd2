import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
const bundles = (stderr: string) => [...stderr.matchAll(/^VENDOR (\S+)$/gm)].map((m) => m[1]!).sort();

/**
 * The modules of the CLI's bundle (dist/cli-bundle.cjs) whose code ran, from V8's coverage of one run:
 * esbuild wraps each module reached lazily in a function named after its path, which runs once, when
 * the module is first needed.
 */
async function modulesRun(args: string[]): Promise<{ ran: Set<string>; lazy: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'arena-coverage-'));
  try {
    const r = await execa('node', [ARENA_BIN, ...args], {
      cwd: REPO_ROOT,
      reject: false,
      extendEnv: false,
      env: { PATH: process.env.PATH ?? '', NO_COLOR: '1', CI: '1', NODE_V8_COVERAGE: dir },
    });
    expect(r.exitCode, r.stderr).toBe(0);
    const scripts = readdirSync(dir).flatMap(
      (f) => (JSON.parse(readFileSync(join(dir, f), 'utf8')) as { result: Coverage[] }).result,
    );
    const bundle = scripts.find((s) => s.url.endsWith('/dist/cli-bundle.cjs'));
    expect(bundle, 'the bundle in the coverage').toBeDefined();
    const inits = bundle!.functions.filter((f) => /^(dist|node_modules)\//.test(f.functionName));
    return { ran: new Set(inits.filter((f) => f.ranges[0]!.count > 0).map((f) => f.functionName)), lazy: inits.length };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
interface Coverage {
  url: string;
  functions: Array<{ functionName: string; ranges: Array<{ count: number }> }>;
}

describe('start-up path', () => {
  it('`arena scenario validate` loads neither ink nor react, nor any bundle or package it does not use', async () => {
    const r = await tracedImports(['scenario', 'validate', 'test/fixtures/scenarios/quick-pass.yaml']);
    expect(r.exitCode).toBe(0);
    // the CLI and the three vendor bundles it needs; not the MCP SDK's
    expect(bundles(r.stderr)).toEqual(['cli', 'commander', 'yaml', 'zod']);
    const names = imported(r.stderr);
    for (const pkg of ['ink', 'react', 'better-sqlite3', 'pg', 'yaml', 'zod', 'commander', '@modelcontextprotocol'])
      expect(names.has(pkg), pkg).toBe(false);
    // nor node:crypto, ~2 ms to load (action ids use Web Crypto; the compile cache names files with FNV-1a)
    expect(r.stderr).toMatch(/^BUILTIN fs$/m);
    expect(r.stderr).not.toMatch(/^BUILTIN crypto$/m);
  });

  it("`arena scenario validate` runs only the bundle's modules it needs: no other command's, no chalk, tables or statistics", async () => {
    const { ran, lazy } = await modulesRun(['scenario', 'validate', 'test/fixtures/scenarios/quick-pass.yaml']);
    expect(ran).toContain('dist/arena/scenario/validate.js'); // the coverage works
    expect(lazy).toBeGreaterThan(200);
    const others = [...ran].filter(
      (m) =>
        m.startsWith('node_modules/') ||
        /^dist\/(runtime|targets|server|events|proxies|bootstrap|cli\/view|cli\/run\/(?!validate-scenarios))/.test(m),
    );
    expect(others).toEqual([]);
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
