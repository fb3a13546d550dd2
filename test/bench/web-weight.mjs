#!/usr/bin/env node
/**
 * Page weight of the web console: what a browser downloads for `/` (HTML +
 * JS + CSS), raw and gzipped, from the built dist/web. The baseline, measured
 * in the same run with the same esbuild settings, is the two libraries alone
 * (Preact's render and uPlot with its CSS): the ratio says how much the
 * console's own code adds on top of its floor. Not part of `npm test`.
 *
 *   npm run build && node test/bench/web-weight.mjs
 */
import { build } from 'esbuild';
import { readFile, readdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const dist = join(root, 'dist/web');
const BUDGET = 100 * 1024;
const gz = (buf) => gzipSync(buf, { level: 9 }).length;
const kb = (n) => `${(n / 1024).toFixed(1)} kB`;

let files;
try {
  files = ['index.html', ...(await readdir(join(dist, 'assets'))).map((n) => `assets/${n}`)];
} catch {
  process.stderr.write('web-weight: dist/web is missing; run npm run build first\n');
  process.exit(2);
}
const rows = await Promise.all(
  files.map(async (f) => {
    const body = await readFile(join(dist, f));
    return { file: f, raw: body.length, gzip: gz(body) };
  }),
);
const page = rows.reduce((sum, r) => ({ raw: sum.raw + r.raw, gzip: sum.gzip + r.gzip }), { raw: 0, gzip: 0 });

// the floor: the same bundler settings on an entry that only pulls in the two libraries
const baseline = await build({
  stdin: {
    contents:
      "import { render, h } from 'preact'; import uPlot from 'uplot'; import 'uplot/dist/uPlot.min.css'; render(h('div', null, String(typeof uPlot)), document.body);",
    resolveDir: root,
    loader: 'js',
  },
  bundle: true,
  minify: true,
  format: 'esm',
  target: ['chrome110', 'firefox115', 'safari16'],
  outdir: 'baseline',
  write: false,
  legalComments: 'none',
  logLevel: 'silent',
});
const base = baseline.outputFiles.reduce(
  (sum, f) => ({ raw: sum.raw + f.contents.length, gzip: sum.gzip + gz(f.contents) }),
  { raw: 0, gzip: 0 },
);

for (const r of rows)
  process.stdout.write(`${r.file.padEnd(32)} ${kb(r.raw).padStart(9)} ${kb(r.gzip).padStart(9)} gz\n`);
process.stdout.write(
  `${'console page (HTML + JS + CSS)'.padEnd(32)} ${kb(page.raw).padStart(9)} ${kb(page.gzip).padStart(9)} gz\n`,
);
process.stdout.write(
  `${'baseline: preact + uPlot alone'.padEnd(32)} ${kb(base.raw).padStart(9)} ${kb(base.gzip).padStart(9)} gz\n`,
);
process.stdout.write(
  `ratio console / baseline (gzipped): ${(page.gzip / base.gzip).toFixed(2)}x; budget used: ${((page.gzip / BUDGET) * 100).toFixed(0)}% of ${kb(BUDGET)}\n`,
);
