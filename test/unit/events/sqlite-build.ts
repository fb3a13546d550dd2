/**
 * Builds just the SQLite store (and what it imports) into one plain JS module inside
 * node_modules/.cache, so child processes can import it without a TypeScript loader and without
 * depending on a full `npm run build`. esbuild, not tsc: the types are checked by `npm run
 * typecheck`, and a tsc run here cost ~2 s of CPU per run of the suite.
 */
import { build } from 'esbuild';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = fileURLToPath(new URL('../../..', import.meta.url));
export const WRITER = join(REPO, 'test/fixtures/sqlite-writer.mjs');

export async function compileStore(): Promise<string> {
  const cache = join(REPO, 'node_modules/.cache');
  mkdirSync(cache, { recursive: true });
  const outfile = join(mkdtempSync(join(cache, 'chaos-arena-sqlite-')), 'events/sqlite.js');
  // packages (better-sqlite3, zod...) stay imports, found in the repo's node_modules from there
  await build({
    entryPoints: [join(REPO, 'src/events/sqlite.ts')],
    outfile,
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'warning',
  });
  return outfile;
}
