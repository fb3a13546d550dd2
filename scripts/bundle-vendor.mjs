#!/usr/bin/env node
/**
 * Bundles each vendored package into one file, dist/vendor/<name>.cjs, and replaces tsc's
 * dist/vendor/<name>.js (the door, src/vendor/<name>.ts) with one exporting the same names from it. A
 * package spread over many files costs the CLI a module resolution, read and compile per file at
 * every start; one file costs one. The bundle is CommonJS because node:vm can give a script a V8
 * code cache and Node 20 cannot give an ES module one (dist/vendor/compile-cache.js); the cache key
 * carries a hash of the bundle, so a rebuilt bundle never meets an old cache. Each bundle's head
 * carries the licence of every package whose code it holds.
 * Run after tsc: `npm run build` does.
 */
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { licences } from './bundle-licences.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
/**
 * zod's `locales` namespace re-exports its 50-odd message translations, which is half of the
 * bundle; the arena only ever speaks English (zod's default), so its bundle keeps `locales.en` only.
 */
const enOnlyLocales = {
  name: 'zod-en-only-locales',
  setup(b) {
    b.onResolve({ filter: /\/locales\/index\.js$/ }, (a) => ({ path: a.path, namespace: 'zod-en-only' }));
    b.onLoad({ filter: /.*/, namespace: 'zod-en-only' }, () => ({
      contents: "export { default as en } from 'zod/v4/locales/en.js';",
      resolveDir: root,
    }));
  },
};
/**
 * name: the door, src/vendor/<name>.ts. pkg: the package it opens. A door that only re-exports its
 * package (`export * from 'yaml'`) is bundled from the package, with the package's export names
 * (esbuild cannot see a CommonJS module's, such as commander's). A door with code of its own
 * (mcp-sdk: a few of the SDK's modules, and a function that loads its transports on first use) is
 * bundled from tsc's output of it, so the bundle exports what the door does.
 */
const VENDORED = [
  { name: 'yaml', pkg: 'yaml', plugins: [] },
  { name: 'commander', pkg: 'commander', plugins: [] },
  { name: 'zod', pkg: 'zod', plugins: [enOnlyLocales] },
  { name: 'mcp-sdk', pkg: '@modelcontextprotocol/sdk', fromDoor: true, plugins: [] },
];

for (const { name, pkg, fromDoor, plugins } of VENDORED) {
  const door = join(root, 'dist/vendor', `${name}.js`);
  const out = join(root, 'dist/vendor', `${name}.cjs`);
  await stat(door); // tsc emitted the door: the bundle replaces exactly that module
  const names = Object.keys(await import(fromDoor ? door : pkg));
  const exported = names.filter((n) => n !== 'default' && n !== 'module.exports');
  const { version } = JSON.parse(await readFile(join(root, 'node_modules', pkg, 'package.json'), 'utf8'));
  const entry = fromDoor
    ? { entryPoints: [door] }
    : {
        stdin: {
          contents: `import * as pkg from '${pkg}';\nexport const { ${exported.join(', ')} } = pkg;\n`,
          resolveDir: root,
          sourcefile: `vendor-${name}.js`,
        },
      };
  const { metafile } = await build({
    ...entry,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    // smaller to read and ship; names kept so a stack trace still says where
    minifyWhitespace: true,
    minifySyntax: true,
    outfile: out,
    allowOverwrite: true,
    logLevel: 'warning',
    metafile: true,
    plugins,
  });
  const notes = await licences(root, metafile, pkg);
  const banner = `/* ${pkg}@${version}, bundled by scripts/bundle-vendor.mjs with the code of ${notes.length} package(s). Their licences:\n\n${notes.join('\n\n')}\n*/\n`;
  await writeFile(out, banner + (await readFile(out, 'utf8')));
  const hash = createHash('sha256')
    .update(await readFile(out))
    .digest('hex')
    .slice(0, 16);
  // zod exports names such as `catch` and `null`, which cannot be bindings: each is taken under a
  // `$` name and exported as itself
  await writeFile(
    door,
    [
      `// ${pkg}@${version}, one file (${name}.cjs), loaded through the CLI's compile cache; scripts/bundle-vendor.mjs writes this`,
      "import { loadBundle } from './compile-cache.js';",
      `const { ${exported.map((n) => `${n}: $${n}`).join(', ')} } = loadBundle(new URL('./${name}.cjs', import.meta.url), '${name}-${version}-${hash}');`,
      `export { ${exported.map((n) => `$${n} as ${n}`).join(', ')} };`,
      '',
    ].join('\n'),
  );
  const { size } = await stat(out);
  console.log(
    `bundle-vendor: dist/vendor/${name}.cjs ${pkg}@${version} and ${notes.length - 1} other package(s), ${exported.length} exports, ${(size / 1024).toFixed(1)} kB`,
  );
}
