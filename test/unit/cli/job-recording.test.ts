/**
 * `--store` (or ARENA_STORE) on arena trials and arena shrink: no store named, no recording; an empty one
 * refused as bad input (exit 2) before anything runs; a named one opened, the job id and where it goes
 * said on stderr, and what the recorder wrote flushed before the store closes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openJobRecording, recordingSpec } from '../../../src/cli/run/job-recording.js';
import type { CliContext } from '../../../src/cli/context.js';
import { openReadyEventStore } from '../../../src/events/open.js';
import { createShrinkRecorder, readShrinkJobs } from '../../../src/events/shrink-progress.js';
import { isArenaError } from '../../../src/shared/errors.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function context(env: NodeJS.ProcessEnv = {}) {
  let err = '';
  const ctx: CliContext = {
    stdout: { write: () => true },
    stderr: {
      write: (s: string) => {
        err += s;
        return true;
      },
    },
    env,
    cwd: mkdtempSync(join(tmpdir(), 'arena-jobrec-')),
    signal: new AbortController().signal,
  };
  dirs.push(ctx.cwd);
  return { ctx, stderr: () => err };
}

describe('job recording (--store on trials and shrink)', () => {
  it('records nothing when neither --store nor ARENA_STORE names a store', async () => {
    const { ctx } = context();
    expect(recordingSpec(undefined, ctx)).toBeUndefined();
    const opened = await openJobRecording(undefined, ctx, { command: 'shrink', view: 'Shrink' }, async (s) =>
      createShrinkRecorder(s),
    );
    expect(opened).toBeUndefined();
  });

  it('refuses an empty --store as bad input', () => {
    const { ctx } = context();
    let caught: unknown;
    try {
      recordingSpec('  ', ctx);
    } catch (err) {
      caught = err;
    }
    expect(isArenaError(caught, 'invalid_store')).toBe(true);
    expect((caught as { exitCode: number }).exitCode).toBe(2);
    expect((caught as Error).message).toBe('--store needs a SQLite file path, a postgres:// URL or "memory"');
  });

  it('opens the store ARENA_STORE names, says where the job goes, and flushes it before closing', async () => {
    const { ctx, stderr } = context({ ARENA_STORE: 'runs.db' });
    const recording = await openJobRecording(undefined, ctx, { command: 'shrink', view: 'Shrink' }, async (s) =>
      createShrinkRecorder(s, { heartbeatMs: 60_000 }),
    );
    const id = recording!.recorder.id;
    recording!.recorder.publish('shrink.started', { original_faults: 6, source: 'report.json' });
    await recording!.close();
    expect(stderr()).toBe(
      `shrink: recording job ${id} in ${join(ctx.cwd, 'runs.db')} (arena serve --store on it shows the Shrink view)\n`,
    );
    const again = await openReadyEventStore('runs.db', { cwd: ctx.cwd });
    try {
      expect(await readShrinkJobs(again.store, 5)).toMatchObject([{ id, source: 'report.json', original_faults: 6 }]);
    } finally {
      await again.close();
    }
  });
});
