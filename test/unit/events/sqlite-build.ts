/**
 * Compiles just the SQLite store (and what it imports) to plain JS inside
 * node_modules/.cache, so child processes can import it without a TypeScript
 * loader and without depending on a full `npm run build`.
 */
import { execa } from 'execa';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = fileURLToPath(new URL('../../..', import.meta.url));
export const WRITER = join(REPO, 'test/fixtures/sqlite-writer.mjs');

export async function compileStore(): Promise<string> {
  const cache = join(REPO, 'node_modules/.cache');
  mkdirSync(cache, { recursive: true });
  const out = mkdtempSync(join(cache, 'chaos-arena-sqlite-'));
  await execa(
    'node',
    [
      join(REPO, 'node_modules/typescript/bin/tsc'),
      join(REPO, 'src/events/sqlite.ts'),
      '--outDir', out, '--rootDir', join(REPO, 'src'),
      '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022',
      '--skipLibCheck', '--esModuleInterop', '--strict',
    ],
    { cwd: REPO },
  );
  return join(out, 'events/sqlite.js');
}
