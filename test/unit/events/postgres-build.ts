/**
 * Bundles the PostgreSQL store to one plain JS module (pg left external) in
 * node_modules/.cache, so child processes import it without a TypeScript loader.
 */
import { build } from 'esbuild';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = fileURLToPath(new URL('../../..', import.meta.url));
export const PG_WRITER = join(REPO, 'test/fixtures/pg-writer.mjs');

export async function bundlePostgresStore(): Promise<string> {
  const cache = join(REPO, 'node_modules/.cache');
  mkdirSync(cache, { recursive: true });
  const out = join(mkdtempSync(join(cache, 'chaos-arena-pg-')), 'postgres.mjs');
  await build({
    entryPoints: [join(REPO, 'src/events/postgres.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: ['pg'],
    outfile: out,
    logLevel: 'silent',
  });
  return out;
}
