#!/usr/bin/env node
/**
 * Replaces dist/vendor/<pkg>.js (tsc's `export * from '<pkg>'`) with a one-file esbuild bundle of
 * the package, exporting the same names. A CommonJS package spread over many files costs the CLI
 * a module resolution, read and compile per file at every start; one file costs one.
 * Run after tsc: `npm run build` does.
 */
import { build } from 'esbuild';
import { readFile, stat } from 'node:fs/promises';
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
  const out = join(root, 'dist/vendor', `${name}.js`);
  await stat(out); // tsc emitted the re-export: the bundle replaces exactly that module
  // esbuild cannot see a CommonJS module's export names, so they are listed from the package itself
  const exported = Object.keys(await import(name)).filter((n) => n !== 'default' && n !== 'module.exports');
  const pkgDir = join(root, 'node_modules', name);
  const { version, license } = JSON.parse(await readFile(join(pkgDir, 'package.json'), 'utf8'));
  const licenseText = await readFile(join(pkgDir, 'LICENSE'), 'utf8');
  await build({
    stdin: { contents: `import * as pkg from '${name}';\nexport const { ${exported.join(', ')} } = pkg;\n`, resolveDir: root, sourcefile: `vendor-${name}.js` },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // smaller to read and ship; names kept so a stack trace still says where
    minifyWhitespace: true,
    minifySyntax: true,
    outfile: out,
    allowOverwrite: true,
    logLevel: 'warning',
    plugins,
    // the package's own require() of node builtins needs a require in an ES module
    banner: {
      js: [
        `/* ${name}@${version} (${license}), bundled by scripts/bundle-vendor.mjs. Its licence:`,
        licenseText.trim().replaceAll('*/', '* /'),
        '*/',
        "import { createRequire as __vendorCreateRequire } from 'node:module';",
        'const require = __vendorCreateRequire(import.meta.url);',
      ].join('\n'),
    },
  });
  const { size } = await stat(out);
  console.log(`bundle-vendor: dist/vendor/${name}.js ${name}@${version}, ${exported.length} exports, ${(size / 1024).toFixed(1)} kB`);
}
