import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runWith } from '../../../src/cli/main.js';

let dir: string;
beforeEach(() => void (dir = mkdtempSync(join(tmpdir(), 'arena-list-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function cli(args: string[]) {
  let out = '';
  let err = '';
  const code = await runWith(args, {
    stdout: { write: (s: string) => (out += s) },
    stderr: { write: (s: string) => (err += s) },
    env: {},
    cwd: dir,
    signal: new AbortController().signal,
  });
  return { code, out, err };
}

describe('arena scenario list on a folder that is not there', () => {
  it('says the folder is not found, exit 2, no raw ENOENT', async () => {
    const r = await cli(['scenario', 'list', 'no/such/dir']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('arena: scenario folder not found: no/such/dir');
    expect(r.err).not.toMatch(/ENOENT|scandir/);
  });

  it('a file given as the folder is named as a file', async () => {
    writeFileSync(join(dir, 'one.yaml'), 'name: x\n');
    const r = await cli(['scenario', 'list', 'one.yaml']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('one.yaml is a file, not a folder');
    expect(r.err).not.toMatch(/ENOTDIR/);
  });
});
