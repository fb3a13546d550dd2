import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runWith } from '../../../src/cli/main.js';
import { openEventStore } from '../../../src/events/open.js';
import { ARENA_STREAM } from '../../../src/arena/service.js';

let dir: string;
beforeEach(() => void (dir = mkdtempSync(join(tmpdir(), 'arena-store-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('--store on a run command', () => {
  it('records the arena event stream of the run, beside the flight timeline and the runs', async () => {
    const db = join(dir, 'arena.db');
    let out = '';
    const code = await runWith(
      [
        'scenario',
        'run',
        join(process.cwd(), 'test/fixtures/regress/tiny-scenario.yaml'),
        '--seed',
        '7',
        '--store',
        db,
        '--json',
      ],
      {
        stdout: { write: (s: string) => (out += s) },
        stderr: { write: () => undefined },
        env: { CI: '1' },
        cwd: dir,
        signal: new AbortController().signal,
      },
    );
    expect([0, 1]).toContain(code);
    const report = JSON.parse(out).scenarios[0];
    const opened = openEventStore(db, { cwd: dir });
    try {
      const arena = await opened.store.read(ARENA_STREAM);
      expect(arena.map((e) => (e.data as { action: { type: string } }).action.type)).toEqual(
        report.results.map((r: { result: { action: { type: string } } }) => r.result.action.type),
      );
      expect((await opened.store.read('runs')).map((e) => e.type)).toEqual(['run.started', 'run.finished']);
    } finally {
      opened.close();
    }
  }, 20_000);
});
