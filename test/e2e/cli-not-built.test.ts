/**
 * A clone whose build is missing or was cut short (Ctrl-C during `prepare`): `arena` says to run
 * `npm run build`, with no stack trace, instead of crashing on a module that is not there.
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/cli.js';

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/** a copy of the package's bin/ and package.json, with `dist` as given */
function clone(dist: Record<string, string>): string {
  dir = mkdtempSync(join(tmpdir(), 'arena-not-built-'));
  mkdirSync(join(dir, 'bin'));
  for (const f of ['bin/arena.js', 'bin/package.json', 'package.json']) copyFileSync(join(REPO_ROOT, f), join(dir, f));
  for (const [path, text] of Object.entries(dist)) {
    mkdirSync(join(dir, 'dist', path, '..'), { recursive: true });
    writeFileSync(join(dir, 'dist', path), text);
  }
  return dir;
}

const arena = (root: string, ...args: string[]) =>
  execa('node', [join(root, 'bin', 'arena.js'), ...args], { reject: false, env: { NO_COLOR: '1' } });

describe('arena without a complete build', () => {
  it('no dist at all, or a build cut short before it finished: says to run npm run build, exit 3', async () => {
    for (const dist of [{}, { 'cli/main.js': 'export const run = () => 0;\n' }] as Record<string, string>[]) {
      const root = clone(dist);
      const r = await arena(root, 'scenario', 'list');
      expect(r.exitCode).toBe(3);
      expect(r.stderr).toContain(`the build in ${root}/dist is missing or incomplete`);
      expect(r.stderr).toContain(`run \`npm run build\` in ${root}`);
      expect(r.stderr).not.toMatch(/\n\s+at /);
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('a dist missing a module it imports gets the same message, not a stack trace', async () => {
    const root = clone({
      'build-complete.json': '{}\n',
      'cli/main.js': "import './gone.js';\nexport const run = () => 0;\n",
    });
    const r = await arena(root, 'scenario', 'list');
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toContain('is missing or incomplete');
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('--version still answers from package.json', async () => {
    const r = await arena(clone({}), '--version');
    expect(r.exitCode).toBe(0);
    expect(r.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });
});
