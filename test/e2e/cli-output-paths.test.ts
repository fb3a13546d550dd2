import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { arena } from '../helpers/cli.js';

const FX = 'test/fixtures/scenarios';
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'arena-paths-'));
  mkdirSync(join(dir, 'taken'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('output paths are checked before a run starts', () => {
  it.each([
    ['scenario', 'run', `${FX}/quick-pass.yaml`, '--report'],
    ['scenario', 'run', `${FX}/quick-pass.yaml`, '--junit'],
    ['survival', '--duration', '300ms', '--interval', '100ms', '--save-scenario'],
  ])('a directory given as an output file: exit 2 naming the flag, nothing run (%s …)', async (...args) => {
    const flag = args[args.length - 1]!;
    const r = await arena([...args, join(dir, 'taken')]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`${flag} ${join(dir, 'taken')} is a directory`);
    expect(r.stderr).not.toContain('finished');
    expect(r.stdout).toBe('');
  });
});
