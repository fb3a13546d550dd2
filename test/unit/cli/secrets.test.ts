import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readSecret } from '../../../src/cli/secrets.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function fileWith(text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'arena-secret-'));
  dirs.push(dir);
  writeFileSync(join(dir, 'secret'), text);
  return join(dir, 'secret');
}

const source = (over: Partial<Parameters<typeof readSecret>[0]>) => ({
  value: undefined,
  flag: '--token',
  file: undefined,
  fileFlag: '--token-file',
  envName: 'ARENA_PROXY_TOKEN',
  env: {},
  cwd: '/',
  ...over,
});

describe('secrets off the command line (DESIGN §7)', () => {
  it('comes from the flag, else the file (one trailing line break dropped), else the environment', () => {
    expect(readSecret(source({ value: 'a' }))).toBe('a');
    expect(readSecret(source({ file: fileWith('from-file\n') }))).toBe('from-file');
    expect(readSecret(source({ file: fileWith('crlf\r\n') }))).toBe('crlf');
    expect(readSecret(source({ env: { ARENA_PROXY_TOKEN: 'from-env' } }))).toBe('from-env');
    expect(readSecret(source({ file: fileWith('file-wins'), env: { ARENA_PROXY_TOKEN: 'env' } }))).toBe('file-wins');
    expect(readSecret(source({ env: { ARENA_PROXY_TOKEN: '' } }))).toBeUndefined();
    expect(readSecret(source({}))).toBeUndefined();
  });

  it('refuses both flags, an unreadable file and a blank or padded secret, naming where it came from', () => {
    expect(() => readSecret(source({ value: 'a', file: fileWith('b') }))).toThrow(
      'give --token or --token-file, not both',
    );
    expect(() => readSecret(source({ file: '/no/such/file' }))).toThrow(/--token-file: cannot read \/no\/such\/file/);
    expect(() => readSecret(source({ file: fileWith('\n') }))).toThrow(/--token-file .* is blank/);
    expect(() => readSecret(source({ file: fileWith(' s3cret \n') }))).toThrow(/spaces around it/);
    expect(() => readSecret(source({ env: { ARENA_PROXY_TOKEN: 'two\nlines' } }))).toThrow(/ARENA_PROXY_TOKEN/);
  });
});
