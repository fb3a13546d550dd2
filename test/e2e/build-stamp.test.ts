/**
 * scripts/build-stamp.mjs, which lets `npm test` skip the build when dist/ is already the build of
 * the current sources: run as npm runs it, in a scratch project with the same layout.
 */
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/cli.js';

let project: string;
beforeEach(() => {
  project = mkdtempSync(join(tmpdir(), 'arena-build-stamp-'));
  mkdirSync(join(project, 'scripts'));
  cpSync(join(REPO_ROOT, 'scripts/build-stamp.mjs'), join(project, 'scripts/build-stamp.mjs'));
  mkdirSync(join(project, 'src/web'), { recursive: true });
  writeFileSync(join(project, 'src/web/main.ts'), 'export const a = 1;\n');
  writeFileSync(join(project, 'package.json'), '{"name":"scratch"}\n');
  mkdirSync(join(project, 'node_modules'));
  writeFileSync(join(project, 'node_modules/.package-lock.json'), '{"packages":{}}\n');
  mkdirSync(join(project, 'dist/web'), { recursive: true });
  writeFileSync(join(project, 'dist/web/main.js'), 'export const a = 1;\n');
});
afterEach(() => {
  rmSync(project, { recursive: true, force: true });
});

const stamp = (mode: string) => execa('node', ['scripts/build-stamp.mjs', mode], { cwd: project, reject: false });

describe('the build stamp', () => {
  it('says build when there is no record, and not once the build wrote one', async () => {
    const first = await stamp('check');
    expect(first.exitCode).toBe(1);
    expect(first.stderr).toContain('building: no record of a build');
    expect((await stamp('write')).exitCode).toBe(0);
    const second = await stamp('check');
    expect(second.exitCode).toBe(0);
    expect(second.stderr).toContain('not building again');
  });

  it('says build after a source, a build script or the installed packages changed, or a new source appeared', async () => {
    const changes: Array<[string, () => void]> = [
      ['src/web/main.ts', () => writeFileSync(join(project, 'src/web/main.ts'), 'export const a = 2;\n')],
      ['src/web/other.ts', () => writeFileSync(join(project, 'src/web/other.ts'), 'export const b = 1;\n')],
      [
        'scripts/build-stamp.mjs',
        () => appendFileSync(join(project, 'scripts/build-stamp.mjs'), '// a build script is an input too\n'),
      ],
      [
        'node_modules/.package-lock.json',
        () => writeFileSync(join(project, 'node_modules/.package-lock.json'), '{"packages":{"node_modules/x":{}}}\n'),
      ],
    ];
    for (const [file, change] of changes) {
      await stamp('write');
      change();
      const r = await stamp('check');
      expect(r.exitCode, file).toBe(1);
      expect(r.stderr, file).toContain('its sources, scripts, configs or packages changed');
    }
  });

  it('says build when dist/ was changed by something other than the build', async () => {
    await stamp('write');
    writeFileSync(join(project, 'dist/web/main.js'), 'export const a = "written by hand";\n');
    const r = await stamp('check');
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('dist/ changed since the last build wrote it');
  });

  it('refuses an unknown mode', async () => {
    const r = await stamp('maybe');
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('usage: node scripts/build-stamp.mjs write | check');
  });
});
