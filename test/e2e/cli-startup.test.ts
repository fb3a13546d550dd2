/**
 * What a command loads at start-up: bin/arena.js imports the CLI (dist/cli/main.js), which imports
 * each command's module only when argv names it, so a command loads its own modules and packages and
 * no other's.
 */
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { ARENA_BIN, REPO_ROOT } from '../helpers/cli.js';
import { startOtlpReceiver } from '../helpers/otlp-receiver.js';

const TRACE = 'test/fixtures/trace-imports.mjs';

function tracedImports(args: string[], env: Record<string, string> = {}) {
  return execa('node', ['--import', `./${TRACE}`, ARENA_BIN, ...args], {
    cwd: REPO_ROOT,
    reject: false,
    extendEnv: false,
    env: { PATH: process.env.PATH ?? '', NO_COLOR: '1', CI: '1', ...env },
  });
}

/** the packages imported or required, by name (`@scope/name` for a scoped one) */
const imported = (stderr: string) =>
  new Set(
    [...stderr.matchAll(/^IMPORT (\S+)$/gm)].map((m) =>
      m[1]!
        .split('/')
        .slice(0, m[1]!.startsWith('@') ? 2 : 1)
        .join('/'),
    ),
  );
const DIST = `FILE ${pathToFileURL(REPO_ROOT).href.replace(/\/?$/, '/')}dist/`;
/** the ES modules of the CLI's dist/ loaded, as paths under it */
const distModules = (stderr: string) =>
  new Set(
    stderr
      .split('\n')
      .filter((l) => l.startsWith(DIST))
      .map((l) => l.slice(DIST.length)),
  );

describe('start-up path', () => {
  it('`arena scenario validate` loads only the packages it uses: commander, yaml and zod', async () => {
    const r = await tracedImports(['scenario', 'validate', 'test/fixtures/scenarios/quick-pass.yaml']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect([...imported(r.stderr)].sort()).toEqual(['commander', 'yaml', 'zod']);
  });

  it("`arena scenario validate` loads no other command's modules, nor the engine, targets, stores or server", async () => {
    const r = await tracedImports(['scenario', 'validate', 'test/fixtures/scenarios/quick-pass.yaml']);
    expect(r.exitCode, r.stderr).toBe(0);
    const loaded = distModules(r.stderr);
    expect(loaded).toContain('arena/scenario/validate.js'); // the trace works
    const others = [...loaded].filter((m) =>
      /^(index\.js|runtime|targets|server|events|proxies|bootstrap|cli\/view|cli\/run\/(?!validate-scenarios))/.test(m),
    );
    expect(others).toEqual([]);
  });

  it('`arena --version` prints the version without loading the CLI or any package', async () => {
    const r = await tracedImports(['--version']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/^\d+\.\d+\.\d+/);
    expect(imported(r.stderr).size).toBe(0);
    expect(distModules(r.stderr).size).toBe(0);
  });

  it('a plain-mode run loads neither ink nor a database driver (no terminal, CI set, no store)', async () => {
    const r = await tracedImports(['scenario', 'run', 'test/fixtures/scenarios/expect-miss.yaml']);
    expect(r.exitCode).toBe(1);
    const names = imported(r.stderr);
    expect(names).toContain('zod'); // the trace works
    for (const pkg of ['ink', 'react', 'better-sqlite3', 'pg', 'prom-client']) expect(names.has(pkg), pkg).toBe(false);
    expect([...names].filter((n) => n.startsWith('@opentelemetry/'))).toEqual([]);
  });

  it('a run with --otlp loads the OpenTelemetry SDK and exporter (the packages the check above keeps out)', async () => {
    const receiver = await startOtlpReceiver();
    try {
      const r = await tracedImports([
        'scenario',
        'run',
        'test/fixtures/scenarios/quick-pass.yaml',
        '--otlp',
        receiver.url,
      ]);
      expect(r.exitCode, r.stderr).toBe(0);
      const names = imported(r.stderr);
      for (const pkg of ['@opentelemetry/api', '@opentelemetry/sdk-trace', '@opentelemetry/exporter-trace-otlp-proto'])
        expect(names.has(pkg), pkg).toBe(true);
    } finally {
      await receiver.close();
    }
  }, 60_000);
});
