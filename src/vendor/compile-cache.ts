/**
 * Loads our one-file bundles with a V8 code cache: the CLI itself (dist/cli-bundle.cjs,
 * scripts/bundle-cli.mjs) and the packages it vendors (dist/vendor/<name>.cjs,
 * scripts/bundle-vendor.mjs), so a CLI start does not compile them again every time
 * (test/bench/cli-startup.mjs).
 *
 * Only the CLI turns the cache on (`enableCompileCache`, from bin/arena.js, which loads this module's
 * CommonJS build, dist/vendor/compile-cache.cjs); `import 'chaos-arena'` never touches the disk.
 * The cache is written at exit, after the run, because only then does it hold the functions V8
 * compiled lazily while the command ran; a cache taken right after compiling saves almost nothing.
 * Node 22's `module.enableCompileCache` does this for every module; Node 20 has no such thing, and
 * no code cache at all for an ES module.
 *
 * Where: `$NODE_COMPILE_CACHE/chaos-arena` (the directory a user gave Node for its own cache), else
 * `<tmpdir>/chaos-arena-compile-cache-<uid>`. `NODE_DISABLE_COMPILE_CACHE=1` turns it off, as it does
 * Node's. A cache is code, so it is read only from a directory that belongs to this user and nobody
 * else can write to. V8 rejects a cache made by another V8 version or other flags; its check of the
 * source is by length only, so the file name carries a hash of the bundle's content. It also carries
 * a hash of the bundle's path: a cache keeps the file name of the script it was made from, so two
 * installs of one version sharing a cache would print each other's paths in stack traces.
 */
import { isAscii } from 'node:buffer';
import {
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';

export type CompileCacheState = 'off' | 'hit' | 'miss' | 'rejected';

interface Loaded {
  key: string;
  /** the key, and the variant after a '+' when there is one: what the cache file is named after */
  name: string;
  /** the bundle's own file */
  file: string;
  script: Script;
  state: CompileCacheState;
}

let cacheDir: string | undefined;
let writeAtExit = false;
const loaded: Loaded[] = [];

/**
 * Turns the cache on for bundles loaded from now on and writes what is new at exit. Returns the
 * directory, or undefined when it is off (disabled, or no directory that is safe to use).
 * @public called by bin/arena.js, through this module's CommonJS build (dist/vendor/compile-cache.cjs)
 */
export function enableCompileCache(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.NODE_DISABLE_COMPILE_CACHE) return undefined;
  const uid = process.getuid?.();
  const dir = env.NODE_COMPILE_CACHE
    ? join(env.NODE_COMPILE_CACHE, 'chaos-arena')
    : join(tmpdir(), `chaos-arena-compile-cache-${uid ?? 'user'}`);
  if (!ownDirectory(dir, uid)) return undefined;
  cacheDir = dir;
  if (!writeAtExit) {
    writeAtExit = true;
    process.once('exit', writeCompileCache);
  }
  return dir;
}

/**
 * The module.exports of a CommonJS bundle, run from its code cache when there is a good one.
 * `variant`: a bundle whose callers run different parts of it keeps one cache per variant, since
 * a cache holds only what the run that wrote it compiled (the CLI's bundle, one per command).
 * @public called by the dist/vendor/<name>.js doors that scripts/bundle-vendor.mjs writes, and by
 * dist/cli.cjs (scripts/bundle-cli.mjs)
 */
export function loadBundle(url: URL, key: string, variant?: string): Record<string, unknown> {
  const file = fileURLToPath(url);
  const source = decode(readFileSync(file));
  const name = variant ? `${key}+${variant}` : key;
  const cachedData = cacheDir ? readCache(cacheFile(cacheDir, name, file)) : undefined;
  // the same wrapper Node gives a CommonJS module, so the bundle's require and module work as usual
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: file,
    cachedData,
  });
  const state: CompileCacheState = !cacheDir
    ? 'off'
    : !cachedData
      ? 'miss'
      : script.cachedDataRejected
        ? 'rejected'
        : 'hit';
  loaded.push({ key, name, file, script, state });
  const module = { exports: {} as Record<string, unknown> };
  script.runInThisContext()(module.exports, createRequire(file), module, file, dirname(file));
  return module.exports;
}

/**
 * The bundle's text. Our bundles are ASCII (scripts/bundle-cli.mjs makes sure of the CLI's), and ASCII
 * read as latin1 is the same text: 0.1 ms for the CLI's 1.4 MB against 1.3 ms through the UTF-8
 * decoder, and 3 ms when a single character is not ASCII.
 */
function decode(bytes: Buffer): string {
  return isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
}

/**
 * The variant of the CLI's cache for a command line: its leading command words (`scenario-run`,
 * `serve`), at most two, up to the first option or file. Anything else is no word of a command, so
 * it cannot name a file: a typo makes at most one cache more, which the month's pruning removes.
 * @public called by bin/arena.js, as enableCompileCache is
 */
export function commandVariant(argv: readonly string[]): string | undefined {
  const words: string[] = [];
  for (const arg of argv.slice(0, 2)) {
    if (!/^[a-z][a-z0-9-]{0,31}$/.test(arg)) break;
    words.push(arg);
  }
  return words.length > 0 ? words.join('-') : undefined;
}

/**
 * Which bundles this process loaded and whether V8 took their cache.
 * @public for tests and diagnostics (test/e2e/cli-compile-cache.test.ts reads it in a new process)
 */
export function compileCacheStates(): Array<{ key: string; state: CompileCacheState }> {
  return loaded.map(({ key, state }) => ({ key, state }));
}

/** writes a cache for each bundle that had none or a rejected one; never throws (a cache is optional) */
export function writeCompileCache(): void {
  const dir = cacheDir;
  if (!dir) return;
  for (const entry of loaded) {
    if (entry.state !== 'miss' && entry.state !== 'rejected') continue;
    const file = cacheFile(dir, entry.name, entry.file);
    const partial = `${file}.${process.pid}.tmp`;
    try {
      writeFileSync(partial, entry.script.createCachedData(), { mode: 0o600 });
      renameSync(partial, file); // whole or not at all, whatever other arena processes do meanwhile
      entry.state = 'hit';
      pruneOlder(dir, entry.key, entry.file, file);
    } catch {
      // a full disk, a vanished directory or a file another process removed first costs a cache, nothing more
    }
  }
}

/**
 * A new build's cache replaces older builds' caches of the same bundle at the same path for this V8,
 * so rebuilds do not pile up; another install's cache and another Node version's stay (someone
 * switching versions keeps both), and caches named before they carried a path (older arenas) go.
 * What no run has written for a month goes too, whatever made it: the cache of a checkout since
 * deleted would otherwise stay in the temporary directory for good (one still in use is written
 * again by its next run). A key starts with the bundle's name and a '-' (`zod-4.6.7-<hash>`,
 * scripts/bundle-vendor.mjs).
 */
function pruneOlder(dir: string, key: string, bundle: string, keep: string, now = Date.now()): void {
  const prefix = `${key.split('-')[0]}-`;
  const ours = `${pathTag(bundle)}${CACHE_SUFFIX}`;
  // this build's caches: its own, and each command's of a bundle with variants (`<key>+<variant>`)
  const thisBuild = (name: string) => name.startsWith(`${key}+`) || name.startsWith(`${key}-at-`);
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (path === keep) continue;
    const replaced =
      name.startsWith(prefix) &&
      name.endsWith(CACHE_SUFFIX) &&
      !thisBuild(name) &&
      (name.endsWith(ours) || !name.includes('-at-'));
    const stale = (name.endsWith('.cache') || name.endsWith('.tmp')) && now - statSync(path).mtimeMs > STALE_MS;
    if (replaced || stale) unlinkSync(path);
  }
}

/** a cache file no run has written for this long is removed by the next write */
const STALE_MS = 30 * 24 * 60 * 60 * 1000;

/** V8 refuses another version's cache anyway; in the name, two Node versions do not overwrite each other's */
const CACHE_SUFFIX = `-v8-${process.versions.v8}-${process.arch}.cache`;

/**
 * `-at-<hash of the bundle's path>`: each install has its own cache (see the top of this file). Two
 * 32-bit FNV-1a hashes with different offsets: a name for a path, not a secret, and node:crypto
 * would cost every CLI start its ~2 ms of loading (`scenario validate` does not load it otherwise).
 */
function pathTag(bundle: string): string {
  let a = 0x811c9dc5;
  let b = 0x050c5d1f;
  for (let i = 0; i < bundle.length; i++) {
    const c = bundle.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x01000193);
  }
  return `-at-${(a >>> 0).toString(16).padStart(8, '0')}${(b >>> 0).toString(16).padStart(8, '0')}`;
}

function cacheFile(dir: string, key: string, bundle: string): string {
  return join(dir, `${key}${pathTag(bundle)}${CACHE_SUFFIX}`);
}

function readCache(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/** creates the directory (mode 700) if needed; true only when it is ours and no one else can write to it */
function ownDirectory(dir: string, uid: number | undefined): boolean {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const st = lstatSync(dir);
    if (!st.isDirectory()) return false;
    if (uid === undefined) return true; // Windows: the temporary directory is the user's own
    return st.uid === uid && (st.mode & 0o022) === 0;
  } catch {
    return false;
  }
}
