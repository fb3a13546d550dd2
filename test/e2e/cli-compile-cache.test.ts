import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { arena, REPO_ROOT } from '../helpers/cli.js';

const FILE = 'test/fixtures/scenarios/quick-pass.yaml';
let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'arena-cli-cache-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const cacheDir = () => join(dir, 'chaos-arena');
const cacheFiles = () =>
  existsSync(cacheDir())
    ? readdirSync(cacheDir())
        .filter((f) => f.endsWith('.cache'))
        .sort()
    : [];
const validate = (env: Record<string, string> = {}) =>
  arena(['scenario', 'validate', FILE], { env: { NODE_COMPILE_CACHE: dir, ...env } });

/** which vendor bundles a new process loads, and whether V8 took their cache (the dist module, as the CLI uses it) */
async function statesInNewProcess(): Promise<Record<string, string>> {
  const script = `
    import { enableCompileCache, compileCacheStates } from './dist/vendor/compile-cache.js';
    enableCompileCache();
    const { parseDocument } = await import('./dist/vendor/yaml.js');
    const { z } = await import('./dist/vendor/zod.js');
    z.object({ a: z.number() }).parse(parseDocument('a: 1').toJS());
    console.log(JSON.stringify(compileCacheStates()));`;
  const r = await execa('node', ['--input-type=module', '-e', script], {
    cwd: REPO_ROOT,
    extendEnv: false,
    env: { PATH: process.env.PATH ?? '', NODE_COMPILE_CACHE: dir },
  });
  const states = JSON.parse(r.stdout) as Array<{ key: string; state: string }>;
  return Object.fromEntries(states.map(({ key, state }) => [key.split('-')[0], state]));
}

describe('the CLI keeps a V8 code cache of its own bundle and its vendor bundles', () => {
  it('the first run writes one per bundle it loaded, and later runs read it, with the same result', async () => {
    const first = await validate();
    expect(first.exitCode).toBe(0);
    // the CLI's own, for this command (scripts/bundle-cli.mjs), and the three vendor bundles validate uses
    expect(cacheFiles().map((f) => f.split('-')[0])).toEqual(['cli', 'commander', 'yaml', 'zod']);
    expect(cacheFiles()[0]).toMatch(/^cli-\d+\.\d+\.\d+-[0-9a-f]{16}\+scenario-validate-at-/);
    const written = Object.fromEntries(cacheFiles().map((f) => [f, statSync(join(cacheDir(), f)).mtimeMs]));

    const second = await validate();
    expect(second.exitCode).toBe(0);
    expect(second.stdout).toBe(first.stdout);
    // a cache V8 took is not written again
    for (const [f, mtime] of Object.entries(written)) expect(statSync(join(cacheDir(), f)).mtimeMs, f).toBe(mtime);
    expect(await statesInNewProcess()).toEqual({ yaml: 'hit', zod: 'hit' });

    // another command keeps a cache of the CLI of its own (what it compiles is not what validate did)
    const list = await arena(['scenario', 'list'], { env: { NODE_COMPILE_CACHE: dir } });
    expect(list.exitCode).toBe(0);
    expect(
      cacheFiles()
        .filter((f) => f.startsWith('cli-'))
        .map((f) => f.split('+')[1]!.split('-at-')[0]),
    ).toEqual(['scenario-list', 'scenario-validate']);
  });

  it('a damaged cache costs nothing but its use: the run is the same, V8 rejects it, and it is written anew', async () => {
    expect((await validate()).exitCode).toBe(0);
    const zod = join(cacheDir(), cacheFiles().find((f) => f.startsWith('zod-'))!);
    const size = statSync(zod).size;
    writeFileSync(zod, Buffer.alloc(size, 0x5a));
    const r = await validate();
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('ok test/fixtures/scenarios/quick-pass.yaml');
    expect(readFileSync(zod).equals(Buffer.alloc(size, 0x5a))).toBe(false);
    expect(await statesInNewProcess()).toEqual({ yaml: 'hit', zod: 'hit' });
    // and a cache V8 cannot use is reported as such, not as a hit
    writeFileSync(zod, Buffer.alloc(size, 0x5a));
    expect((await statesInNewProcess()).zod).toBe('rejected');
  });

  it('two installs of the same version do not share a cache: stack traces name their own files', async () => {
    // the same bundle at two paths, as two checkouts or a global and a local install have it
    const installs = ['one', 'two'].map((name) => {
      const file = join(dir, name, 'thrower.cjs');
      mkdirSync(join(dir, name));
      writeFileSync(file, "module.exports = { boom() { throw new Error('from the bundle'); } };\n");
      return file;
    });
    const run = async (bundle: string) => {
      const script = `
        import { enableCompileCache, loadBundle, compileCacheStates } from './dist/vendor/compile-cache.js';
        import { pathToFileURL } from 'node:url';
        enableCompileCache();
        const m = loadBundle(pathToFileURL(${JSON.stringify(bundle)}), 'thrower-1.0.0-aaaa');
        try { m.boom(); } catch (err) { console.log(JSON.stringify({ at: err.stack.split('\\n')[1], state: compileCacheStates()[0].state })); }`;
      const r = await execa('node', ['--input-type=module', '-e', script], {
        cwd: REPO_ROOT,
        extendEnv: false,
        env: { PATH: process.env.PATH ?? '', NODE_COMPILE_CACHE: dir },
      });
      return JSON.parse(r.stdout) as { at: string; state: string };
    };
    const [one, two] = installs as [string, string];
    expect(await run(one)).toEqual({ at: expect.stringContaining(`${one}:1:`), state: 'miss' });
    expect(await run(one)).toEqual({ at: expect.stringContaining(`${one}:1:`), state: 'hit' });
    expect(await run(two)).toEqual({ at: expect.stringContaining(`${two}:1:`), state: 'miss' });
    expect(await run(two)).toEqual({ at: expect.stringContaining(`${two}:1:`), state: 'hit' });
    expect(await run(one)).toEqual({ at: expect.stringContaining(`${one}:1:`), state: 'hit' });
  });

  it('`arena --help` names both variables', async () => {
    const r = await arena(['--help']);
    expect(r.stdout).toMatch(/^ {2}NODE_COMPILE_CACHE +where the start-up code cache lives/m);
    expect(r.stdout).toMatch(/^ {2}NODE_DISABLE_COMPILE_CACHE +no start-up code cache/m);
  });

  it('NODE_DISABLE_COMPILE_CACHE=1 writes nothing', async () => {
    const r = await validate({ NODE_DISABLE_COMPILE_CACHE: '1' });
    expect(r.exitCode).toBe(0);
    expect(existsSync(cacheDir())).toBe(false);
  });

  it('a cache directory others can write to is neither read nor written', async () => {
    expect((await validate()).exitCode).toBe(0);
    chmodSync(cacheDir(), 0o777);
    for (const f of cacheFiles()) writeFileSync(join(cacheDir(), f), 'planted');
    const r = await validate();
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('ok test/fixtures/scenarios/quick-pass.yaml');
    for (const f of cacheFiles()) expect(readFileSync(join(cacheDir(), f), 'utf8'), f).toBe('planted');
  });
});
