#!/usr/bin/env node
// `npm test` builds first (pretest), yet right after `npm ci` or `npm run build` dist/ is already
// current, and building it again cost every test run ~7 s. The build ends with `write`, which records
// a digest of what the build reads (src/, scripts/, the configs, the installed packages) and one of
// dist/ itself; pretest runs `check`, which exits 0 only when both still match, and builds otherwise.
// A changed source, build script, config, dependency, or a dist/ changed by hand (a plain `tsc`
// overwrites the vendor doors) all mean a build. The record lives in node_modules/.cache, which
// `npm ci` wipes, so a fresh install never trusts an old one.
// Usage: node scripts/build-stamp.mjs write | check
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const STAMP = join(root, 'node_modules', '.cache', 'chaos-arena', 'build-stamp.json');
// node_modules/.package-lock.json is npm's record of the installed tree: the vendor bundles are built from it
const INPUTS = [
  'src',
  'scripts',
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'tsconfig.build.json',
  'node_modules/.package-lock.json',
];

/** every file under `path` (or `path` itself), absolute; nothing when it does not exist */
function filesOf(path) {
  const full = join(root, path);
  if (!existsSync(full)) return [];
  if (!statSync(full).isDirectory()) return [full];
  // walked by hand: readdirSync's `recursive` came in Node 20.1, and package.json allows any Node 20
  return readdirSync(full, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesOf(join(path, e.name)) : e.isFile() ? [join(full, e.name)] : [],
  );
}

/** one digest of the files' paths and contents, in a fixed order */
function digest(paths) {
  const hash = createHash('sha256');
  for (const file of paths.flatMap(filesOf).sort()) {
    hash.update(relative(root, file)).update('\0').update(readFileSync(file)).update('\0');
  }
  return hash.digest('hex');
}

const now = () => ({ inputs: digest(INPUTS), dist: digest(['dist']) });

const mode = process.argv[2];
if (mode === 'write') {
  mkdirSync(dirname(STAMP), { recursive: true });
  writeFileSync(STAMP, `${JSON.stringify(now())}\n`);
} else if (mode === 'check') {
  let recorded;
  try {
    recorded = JSON.parse(readFileSync(STAMP, 'utf8'));
  } catch {
    recorded = undefined;
  }
  const current = now();
  const why = !recorded
    ? 'no record of a build'
    : recorded.inputs !== current.inputs
      ? 'its sources, scripts, configs or packages changed since the last build'
      : recorded.dist !== current.dist
        ? 'dist/ changed since the last build wrote it'
        : undefined;
  if (why) {
    process.stderr.write(`build-stamp: building: ${why}\n`);
    process.exit(1);
  }
  process.stderr.write('build-stamp: dist/ is the build of the current sources; not building again\n');
} else {
  process.stderr.write('usage: node scripts/build-stamp.mjs write | check\n');
  process.exit(2);
}
