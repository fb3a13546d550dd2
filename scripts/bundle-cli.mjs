#!/usr/bin/env node
/**
 * Bundles the CLI (tsc's dist/cli/main.js and everything it imports) into one CommonJS file,
 * dist/cli-bundle.cjs, which bin/arena.js runs from a V8 code cache (src/vendor/compile-cache.ts).
 * Node 20 has no code cache for ES modules, and resolving, reading and compiling each of the ~150
 * modules a short `scenario run` loads cost it ~90 of its ~210 ms of CPU (test/bench/cli-startup.mjs).
 * A module reached only by a dynamic import stays lazy in the bundle: its code runs when the command
 * that needs it does.
 *
 * Writes:
 * - dist/cli-bundle.cjs, with the licences of the packages whose code it holds;
 * - dist/cli.cjs, its door: `loadCli(variant)` loads it through the compile cache (a cache per
 *   command, `commandVariant`), under a key that carries a hash of the bundle;
 * - dist/vendor/compile-cache.cjs, the compile cache for bin/arena.js, which requires it: the one
 *   instance the CLI turns on and the bundle loads through (an ES module would cost every start the
 *   ES module loader's own start-up).
 *
 * What stays out of the bundle:
 * - the vendor bundles (dist/vendor/<name>.cjs): each door becomes a loadBundle of its file, so a
 *   command loads only the ones it uses, each from a cache of its own;
 * - the live view (dist/cli/view/mount.js and what it imports), an ES module loaded by import():
 *   ink needs yoga-layout, whose WebAssembly loads with a top-level await, which CommonJS cannot have;
 * - better-sqlite3 (a native addon) and pg (which looks for an optional native driver).
 * Run after tsc and scripts/bundle-vendor.mjs: `npm run build` does.
 */
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { licences } from './bundle-licences.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const { version } = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'));
const EXTERNAL_PACKAGES = ['better-sqlite3', 'pg'];
/** packages that must never be in the bundle: the live view's, loaded through its ES module */
const VIEW_PACKAGES = ['ink', 'react', 'yoga-layout'];

// each module's import.meta.url is its own file's under dist/, as it was before bundling; an import()
// goes through the door (dist/cli.cjs), a file Node loaded itself: code run by node:vm, as the bundle
// is, has no import() of its own without an experimental flag
const banner = [
  'var __moduleUrl = (file) => require("node:url").pathToFileURL(require("node:path").join(__dirname, file)).href;',
  'var __import = (specifier) => require("./cli.cjs").importModule(specifier);',
].join('\n');

const cliPlugin = {
  name: 'arena-cli',
  setup(b) {
    // the compile cache: the CommonJS instance bin/arena.js turned on
    b.onResolve({ filter: /\/vendor\/compile-cache\.c?js$/ }, () => ({
      path: './vendor/compile-cache.cjs',
      external: true,
    }));
    // a vendor door: a loadBundle of its own file, under the key scripts/bundle-vendor.mjs gave it
    b.onResolve({ filter: /\/vendor\/[\w-]+\.js$/ }, (a) => ({
      path: join(a.resolveDir, a.path),
      namespace: 'vendor-door',
    }));
    b.onLoad({ filter: /.*/, namespace: 'vendor-door' }, async (a) => {
      const door = await readFile(a.path, 'utf8');
      const found = /loadBundle\(new URL\('\.\/([\w-]+\.cjs)', import\.meta\.url\), '([^']+)'\)/.exec(door);
      if (!found)
        return {
          errors: [
            {
              text: `${relative(root, a.path)} is not a door scripts/bundle-vendor.mjs wrote (no loadBundle of a .cjs file)`,
            },
          ],
        };
      return {
        contents: `module.exports = require('./vendor/compile-cache.cjs').loadBundle(require('node:url').pathToFileURL(require('node:path').join(__dirname, 'vendor', ${JSON.stringify(found[1])})), ${JSON.stringify(found[2])});`,
        loader: 'js',
      };
    });
    // the live view: an ES module of its own, imported when a run shows it
    b.onResolve({ filter: /\/view\/mount\.js$/ }, (a) => {
      if (a.kind !== 'dynamic-import')
        return {
          errors: [
            {
              text: `${a.importer} imports the live view statically; only import() can load an ES module from the bundle`,
            },
          ],
        };
      return { path: `./${relative(dist, join(a.resolveDir, a.path))}`, external: true };
    });
    b.onLoad({ filter: /\/dist\/.*\.js$/ }, async (a) => {
      const source = await readFile(a.path, 'utf8');
      if (!source.includes('import.meta.url')) return undefined;
      return {
        contents: source.replaceAll('import.meta.url', `__moduleUrl(${JSON.stringify(relative(dist, a.path))})`),
        loader: 'js',
      };
    });
  },
};

const out = join(dist, 'cli-bundle.cjs');
const { metafile } = await build({
  entryPoints: [join(dist, 'cli/main.js')],
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  outfile: out,
  // error classes and functions keep their names (messages and stack traces use them); the code
  // stays readable, since a stack trace of an unexpected error points into this file
  keepNames: true,
  external: EXTERNAL_PACKAGES,
  banner: { js: banner },
  logLevel: 'warning',
  metafile: true,
  plugins: [cliPlugin],
});
const stray = Object.keys(metafile.inputs).filter((input) =>
  VIEW_PACKAGES.some((p) => input.includes(`node_modules/${p}/`)),
);
if (stray.length > 0)
  throw new Error(
    `bundle-cli: the live view's packages reached the bundle (${stray.slice(0, 3).join(', ')}): import the view only through import() of view/mount.js`,
  );

// the import()s of what stays outside (the live view, pg) through the door's, checked by their count
const dynamic = metafile.outputs[relative(root, out)].imports.filter((i) => i.kind === 'dynamic-import' && i.external);
let replaced = 0;
const code = (await readFile(out, 'utf8')).replace(/\bimport\(("[^"]+")\)/g, (_, specifier) => {
  replaced += 1;
  return `__import(${specifier})`;
});
if (replaced !== dynamic.length)
  throw new Error(`bundle-cli: ${dynamic.length} import() of modules outside the bundle, ${replaced} rewritten`);

// esbuild writes code as ASCII, but keeps some comments as they are: escaped, the whole file is ASCII,
// which loadBundle reads without the UTF-8 decoder (3 ms of every start for a 1.4 MB file with one arrow in it)
const ascii = (text) => text.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

const notes = await licences(root, metafile, undefined);
const head = `/* chaos-arena@${version}: the CLI, bundled by scripts/bundle-cli.mjs with the code of ${notes.length} package(s). Their licences:\n\n${notes.join('\n\n')}\n*/\n`;
await writeFile(out, ascii(head + code));
const hash = createHash('sha256')
  .update(await readFile(out))
  .digest('hex')
  .slice(0, 16);
await writeFile(
  join(dist, 'cli.cjs'),
  [
    '// the CLI, one file (cli-bundle.cjs), loaded through its compile cache; scripts/bundle-cli.mjs writes this',
    "'use strict';",
    "const { loadBundle } = require('./vendor/compile-cache.cjs');",
    "const { pathToFileURL } = require('node:url');",
    "const { join } = require('node:path');",
    '/** import() for the bundle, which node:vm runs without one: the live view, pg */',
    'exports.importModule = (specifier) => import(specifier);',
    '/** @param {string | undefined} variant the cache of one command (commandVariant) */',
    `exports.loadCli = (variant) => loadBundle(pathToFileURL(join(__dirname, 'cli-bundle.cjs')), 'cli-${version}-${hash}', variant);`,
    '',
  ].join('\n'),
);

// the compile cache as CommonJS, for bin/arena.js and the bundle
await build({
  entryPoints: [join(dist, 'vendor/compile-cache.js')],
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  outfile: join(dist, 'vendor/compile-cache.cjs'),
  logLevel: 'warning',
});

const { size } = await stat(out);
console.log(
  `bundle-cli: dist/cli-bundle.cjs ${Object.keys(metafile.inputs).length} modules, ${notes.length} package(s), ${(size / 1024).toFixed(1)} kB`,
);
