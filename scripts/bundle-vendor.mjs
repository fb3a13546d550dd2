#!/usr/bin/env node
/**
 * Bundles each vendored package into one file, dist/vendor/<pkg>.cjs, and replaces tsc's
 * dist/vendor/<pkg>.js (`export * from '<pkg>'`) with a door exporting the same names from it. A
 * package spread over many files costs the CLI a module resolution, read and compile per file at
 * every start; one file costs one. The bundle is CommonJS because node:vm can give a script a V8
 * code cache and Node 20 cannot give an ES module one (dist/vendor/compile-cache.js); the cache key
 * carries a hash of the bundle, so a rebuilt bundle never meets an old cache.
 * Run after tsc: `npm run build` does.
 */
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
/**
 * zod's `locales` namespace re-exports its 50-odd message translations, which is half of the
 * bundle; the arena only ever speaks English (zod's default), so its bundle keeps `locales.en` only.
 */
const enOnlyLocales = {
  name: 'zod-en-only-locales',
  setup(b) {
    b.onResolve({ filter: /\/locales\/index\.js$/ }, (a) => ({ path: a.path, namespace: 'zod-en-only' }));
    b.onLoad({ filter: /.*/, namespace: 'zod-en-only' }, () => ({ contents: "export { default as en } from 'zod/v4/locales/en.js';", resolveDir: root }));
  },
};
const VENDORED = [
  { name: 'yaml', plugins: [] },
  { name: 'commander', plugins: [] },
  { name: 'zod', plugins: [enOnlyLocales] },
];

for (const { name, plugins } of VENDORED) {
  const door = join(root, 'dist/vendor', `${name}.js`);
  const out = join(root, 'dist/vendor', `${name}.cjs`);
  await stat(door); // tsc emitted the re-export: the bundle replaces exactly that module
  // esbuild cannot see a CommonJS module's export names, so they are listed from the package itself
  const exported = Object.keys(await import(name)).filter((n) => n !== 'default' && n !== 'module.exports');
  const pkgDir = join(root, 'node_modules', name);
  const { version, license } = JSON.parse(await readFile(join(pkgDir, 'package.json'), 'utf8'));
  const licenseText = await readFile(join(pkgDir, 'LICENSE'), 'utf8');
  await build({
    stdin: { contents: `import * as pkg from '${name}';\nexport const { ${exported.join(', ')} } = pkg;\n`, resolveDir: root, sourcefile: `vendor-${name}.js` },
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
    plugins,
    banner: { js: [`/* ${name}@${version} (${license}), bundled by scripts/bundle-vendor.mjs. Its licence:`, licenseText.trim().replaceAll('*/', '* /'), '*/'].join('\n') },
  });
  const hash = createHash('sha256').update(await readFile(out)).digest('hex').slice(0, 16);
  // zod exports names such as `catch` and `null`, which cannot be bindings: each is taken under a
  // `$` name and exported as itself
  await writeFile(
    door,
    [
      `// ${name}@${version}, one file (${name}.cjs), loaded through the CLI's compile cache; scripts/bundle-vendor.mjs writes this`,
      "import { loadBundle } from './compile-cache.js';",
      `const { ${exported.map((n) => `${n}: $${n}`).join(', ')} } = loadBundle(new URL('./${name}.cjs', import.meta.url), '${name}-${version}-${hash}');`,
      `export { ${exported.map((n) => `$${n} as ${n}`).join(', ')} };`,
      '',
    ].join('\n'),
  );
  const { size } = await stat(out);
  console.log(`bundle-vendor: dist/vendor/${name}.cjs ${name}@${version}, ${exported.length} exports, ${(size / 1024).toFixed(1)} kB`);
}
