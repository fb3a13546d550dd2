#!/usr/bin/env node
/**
 * Bundles the web console (src/web) with esbuild into dist/web: one JS and
 * one CSS file with content hashes in their names (served immutable), and an
 * index.html that names them (served no-cache). Prints the page weight,
 * gzipped, and fails the build above the budget.
 */
import { build } from 'esbuild';
import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'src/web');
const out = join(root, 'dist/web');
const assets = join(out, 'assets');
/** DESIGN §11 aims under 100 kB (JS + CSS, gzipped); the build stops well before a surprise */
const BUDGET_BYTES = 100 * 1024;

await rm(out, { recursive: true, force: true });
await mkdir(assets, { recursive: true });

const result = await build({
  entryPoints: { console: join(src, 'main.tsx') },
  bundle: true,
  minify: true,
  format: 'esm',
  target: ['chrome110', 'firefox115', 'safari16'],
  jsx: 'automatic',
  jsxImportSource: 'preact',
  outdir: assets,
  entryNames: '[name]-[hash]',
  assetNames: '[name]-[hash]',
  metafile: true,
  legalComments: 'none',
  logLevel: 'warning',
  define: { 'process.env.NODE_ENV': '"production"' },
});

const files = Object.keys(result.metafile.outputs).map((p) => join(root, p));
const js = files.find((f) => f.endsWith('.js'));
const css = files.find((f) => f.endsWith('.css'));
if (!js || !css)
  throw new Error(`build-web: expected one .js and one .css, got ${files.map((f) => relative(root, f)).join(', ')}`);

const template = await readFile(join(src, 'index.html'), 'utf8');
const html = template.replace('%JS%', js.slice(assets.length + 1)).replace('%CSS%', css.slice(assets.length + 1));
await writeFile(join(out, 'index.html'), html);

/** JS + CSS + HTML, raw and gzipped, as the browser downloads them */
async function pageWeight(dir = out) {
  const names = [join(dir, 'index.html'), ...(await readdir(join(dir, 'assets'))).map((n) => join(dir, 'assets', n))];
  let raw = 0;
  let gz = 0;
  const rows = [];
  for (const file of names) {
    const body = await readFile(file);
    const z = gzipSync(body, { level: 9 }).length;
    raw += body.length;
    gz += z;
    rows.push({ file: relative(dir, file), raw: body.length, gzip: z });
  }
  return { raw, gzip: gz, rows };
}

const weight = await pageWeight();
const kb = (n) => `${(n / 1024).toFixed(1)} kB`;
process.stdout.write(
  `build-web: dist/web ${weight.rows.map((r) => `${r.file} ${kb(r.raw)} (${kb(r.gzip)} gz)`).join(', ')}; page weight ${kb(weight.gzip)} gzipped\n`,
);
if (weight.gzip > BUDGET_BYTES) {
  process.stderr.write(
    `build-web: the console weighs ${kb(weight.gzip)} gzipped, over the ${kb(BUDGET_BYTES)} budget\n`,
  );
  process.exit(1);
}
