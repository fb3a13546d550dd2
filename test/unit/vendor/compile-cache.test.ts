import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

type CompileCache = typeof import('../../../src/vendor/compile-cache.js');

/** each test gets the module's state fresh: whether the cache is on is module-wide */
async function freshModule(): Promise<CompileCache> {
  vi.resetModules();
  return import('../../../src/vendor/compile-cache.js');
}

let dir: string;
let bundle: URL;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'arena-compile-cache-'));
  // a CommonJS bundle with a lazily compiled function, a require of a builtin and module.exports
  const file = join(dir, 'tiny.cjs');
  writeFileSync(
    file,
    "const { sep } = require('node:path');\nfunction twice(x) { return x * 2; }\nmodule.exports = { twice, sep, file: __filename };\n",
  );
  bundle = pathToFileURL(file);
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const cacheFiles = (d: string) => (existsSync(d) ? readdirSync(d).filter((f) => f.endsWith('.cache')) : []);

describe('vendor bundle compile cache', () => {
  it('is off until the CLI turns it on: the bundle loads and nothing is written', async () => {
    const cc = await freshModule();
    const m = cc.loadBundle(bundle, 'tiny-1') as { twice(x: number): number; file: string };
    expect(m.twice(21)).toBe(42);
    expect(m.file).toBe(join(dir, 'tiny.cjs'));
    expect(cc.compileCacheStates()).toEqual([{ key: 'tiny-1', state: 'off' }]);
    cc.writeCompileCache();
    expect(cacheFiles(dir)).toEqual([]);
  });

  it('a miss is written at the end, in a directory of its own (mode 700, files 600)', async () => {
    const cc = await freshModule();
    const cacheDir = cc.enableCompileCache({ NODE_COMPILE_CACHE: dir });
    expect(cacheDir).toBe(join(dir, 'chaos-arena'));
    expect(statSync(cacheDir!).mode & 0o777).toBe(0o700);
    const m = cc.loadBundle(bundle, 'tiny-1') as { twice(x: number): number };
    expect(m.twice(2)).toBe(4); // compiles twice() before the cache is taken
    expect(cc.compileCacheStates()).toEqual([{ key: 'tiny-1', state: 'miss' }]);
    cc.writeCompileCache();
    const [file] = cacheFiles(cacheDir!);
    expect(file).toMatch(/^tiny-1-at-[0-9a-f]{16}-v8-[\d.]+(-node\.\d+)?-\w+\.cache$/);
    expect(statSync(join(cacheDir!, file!)).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(cacheDir!, file!)).length).toBeGreaterThan(0);
    // (a cache is only ever read by a new process: V8 answers a second compile in the same one from
    // memory. test/e2e/cli-compile-cache.test.ts reads it back.)
  });

  it('another key (a rebuilt bundle) never reads an old cache', async () => {
    const cc = await freshModule();
    cc.enableCompileCache({ NODE_COMPILE_CACHE: dir });
    cc.loadBundle(bundle, 'tiny-1');
    cc.writeCompileCache();
    const next = await freshModule();
    next.enableCompileCache({ NODE_COMPILE_CACHE: dir });
    next.loadBundle(bundle, 'tiny-2');
    expect(next.compileCacheStates()).toEqual([{ key: 'tiny-2', state: 'miss' }]);
  });

  it("a rebuilt bundle's cache replaces the old build's at the same path, and leaves other installs', other bundles' and other Node versions' alone", async () => {
    const cc = await freshModule();
    const cacheDir = cc.enableCompileCache({ NODE_COMPILE_CACHE: dir })!;
    const suffix = `-v8-${process.versions.v8}-${process.arch}.cache`;
    // the tag of this bundle's path, as the first write shows
    cc.loadBundle(bundle, 'tiny-1.0.0-aaaa');
    cc.writeCompileCache();
    const [first] = cacheFiles(cacheDir);
    const at = /-at-[0-9a-f]{16}-/.exec(first!)![0].slice(0, -1);
    writeFileSync(join(cacheDir, `tiny-1.0.0-aaaa${at}-v8-1.2.3-${process.arch}.cache`), 'another node');
    writeFileSync(join(cacheDir, `tiny-1.0.0-aaaa-at-0123456789abcdef${suffix}`), 'another install');
    writeFileSync(join(cacheDir, `tiny-0.9.0-ffff${suffix}`), 'an older arena, before caches carried a path');
    writeFileSync(join(cacheDir, `other-2.0.0-bbbb${at}${suffix}`), 'another bundle');
    const next = await freshModule();
    next.enableCompileCache({ NODE_COMPILE_CACHE: dir });
    next.loadBundle(bundle, 'tiny-1.0.1-cccc');
    next.writeCompileCache();
    expect(cacheFiles(cacheDir).sort()).toEqual(
      [
        `other-2.0.0-bbbb${at}${suffix}`,
        `tiny-1.0.0-aaaa-at-0123456789abcdef${suffix}`,
        `tiny-1.0.0-aaaa${at}-v8-1.2.3-${process.arch}.cache`,
        `tiny-1.0.1-cccc${at}${suffix}`,
      ].sort(),
    );
  });

  it('a write also removes any cache file no run has written for a month (a deleted checkout leaves no litter)', async () => {
    const cc = await freshModule();
    const cacheDir = cc.enableCompileCache({ NODE_COMPILE_CACHE: dir })!;
    const suffix = `-v8-${process.versions.v8}-${process.arch}.cache`;
    const monthAgo = new Date(Date.now() - 31 * 24 * 60 * 60 * 1000);
    for (const name of [
      `other-1.0.0-aaaa-at-0123456789abcdef${suffix}`,
      `tiny-1.0.0-aaaa-at-0123456789abcdef-v8-1.2.3-x64.cache`,
      `zod-1-at-0123456789abcdef${suffix}.4242.tmp`,
    ]) {
      writeFileSync(join(cacheDir, name), 'old');
      utimesSync(join(cacheDir, name), monthAgo, monthAgo);
    }
    writeFileSync(
      join(cacheDir, `other-1.0.0-aaaa-at-fedcba9876543210${suffix}`),
      'written yesterday by another install',
    );
    utimesSync(
      join(cacheDir, `other-1.0.0-aaaa-at-fedcba9876543210${suffix}`),
      new Date(Date.now() - 86_400_000),
      new Date(Date.now() - 86_400_000),
    );
    cc.loadBundle(bundle, 'tiny-2.0.0-bbbb');
    cc.writeCompileCache();
    const left = readdirSync(cacheDir).sort();
    expect(left).toHaveLength(2);
    expect(left).toContain(`other-1.0.0-aaaa-at-fedcba9876543210${suffix}`);
    expect(left.find((f) => f.startsWith('tiny-2.0.0-bbbb-at-'))).toBeDefined();
  });

  it('the same bundle at another path (another install of the same version) has a cache of its own', async () => {
    const copy = join(dir, 'copy');
    mkdirSync(copy);
    const other = join(copy, 'tiny.cjs');
    writeFileSync(other, readFileSync(bundle, 'utf8'));
    const cc = await freshModule();
    const cacheDir = cc.enableCompileCache({ NODE_COMPILE_CACHE: dir })!;
    cc.loadBundle(bundle, 'tiny-1');
    cc.writeCompileCache();
    const next = await freshModule();
    next.enableCompileCache({ NODE_COMPILE_CACHE: dir });
    next.loadBundle(pathToFileURL(other), 'tiny-1');
    // (V8 answers a second compile in one process from memory, so 'miss' here says only that no file was found)
    expect(next.compileCacheStates()).toEqual([{ key: 'tiny-1', state: 'miss' }]);
    next.writeCompileCache();
    expect(cacheFiles(cacheDir)).toHaveLength(2);
  });

  it('a bundle with variants (the CLI, one per command) keeps a cache per variant, and a rebuild replaces them all', async () => {
    const cc = await freshModule();
    const cacheDir = cc.enableCompileCache({ NODE_COMPILE_CACHE: dir })!;
    cc.loadBundle(bundle, 'tiny-1.0.0-aaaa', 'scenario-run');
    cc.writeCompileCache();
    const other = await freshModule();
    other.enableCompileCache({ NODE_COMPILE_CACHE: dir });
    // another command does not read the first one's cache, and its own leaves the first one's alone
    expect(
      (other.loadBundle(bundle, 'tiny-1.0.0-aaaa', 'scenario-validate') as { twice(x: number): number }).twice(2),
    ).toBe(4);
    expect(other.compileCacheStates()).toEqual([{ key: 'tiny-1.0.0-aaaa', state: 'miss' }]);
    other.writeCompileCache();
    const names = cacheFiles(cacheDir).sort();
    expect(names.map((f) => f.split('-at-')[0])).toEqual([
      'tiny-1.0.0-aaaa+scenario-run',
      'tiny-1.0.0-aaaa+scenario-validate',
    ]);
    const again = await freshModule();
    again.enableCompileCache({ NODE_COMPILE_CACHE: dir });
    again.loadBundle(bundle, 'tiny-1.0.0-aaaa', 'scenario-run');
    expect(again.compileCacheStates()).toEqual([{ key: 'tiny-1.0.0-aaaa', state: 'hit' }]);
    // a rebuilt bundle's first write removes the old build's caches, whatever their variant
    const rebuilt = await freshModule();
    rebuilt.enableCompileCache({ NODE_COMPILE_CACHE: dir });
    rebuilt.loadBundle(bundle, 'tiny-1.0.1-bbbb', 'serve');
    rebuilt.writeCompileCache();
    expect(cacheFiles(cacheDir).map((f) => f.split('-at-')[0])).toEqual(['tiny-1.0.1-bbbb+serve']);
  });

  it("a command line's variant is its leading command words, never a path, an option or a value", async () => {
    const { commandVariant } = await freshModule();
    expect(commandVariant(['scenario', 'run', 'scenarios/leader-failover.yaml'])).toBe('scenario-run');
    expect(commandVariant(['serve', '--port', '8080'])).toBe('serve');
    expect(commandVariant(['regress', '--baseline', 'a.yaml'])).toBe('regress');
    expect(commandVariant(['target', 'check', 'http://127.0.0.1:1'])).toBe('target-check');
    for (const argv of [[], ['--help'], ['../etc/passwd'], ['Scenario'], ['a'.repeat(40)], ['x/y']])
      expect(commandVariant(argv), argv.join(' ')).toBeUndefined();
  });

  it('reads a bundle that is not ASCII as UTF-8 (an ASCII one is read as latin1, the same text, faster)', async () => {
    const cc = await freshModule();
    const file = join(dir, 'unicode.cjs');
    writeFileSync(file, "module.exports = { text: '→ été 😀' };\n");
    expect(cc.loadBundle(pathToFileURL(file), 'unicode-1')).toEqual({ text: '→ été 😀' });
  });

  it('NODE_DISABLE_COMPILE_CACHE turns it off, as it does for Node', async () => {
    const cc = await freshModule();
    expect(cc.enableCompileCache({ NODE_COMPILE_CACHE: dir, NODE_DISABLE_COMPILE_CACHE: '1' })).toBeUndefined();
    cc.loadBundle(bundle, 'tiny-1');
    cc.writeCompileCache();
    expect(existsSync(join(dir, 'chaos-arena'))).toBe(false);
  });

  it('refuses a directory others can write to: a cache is code', async () => {
    const shared = join(dir, 'chaos-arena');
    const cc = await freshModule();
    cc.enableCompileCache({ NODE_COMPILE_CACHE: dir }); // creates it, mode 700
    chmodSync(shared, 0o777);
    const next = await freshModule();
    expect(next.enableCompileCache({ NODE_COMPILE_CACHE: dir })).toBeUndefined();
    next.loadBundle(bundle, 'tiny-1');
    next.writeCompileCache();
    expect(cacheFiles(shared)).toEqual([]);
    expect(next.compileCacheStates()).toEqual([{ key: 'tiny-1', state: 'off' }]);
  });
});
