import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isArenaError } from '../../../../src/shared/errors.js';
import { readCmdline, readStat } from '../../../../src/shared/proc.js';
import {
  listRuns,
  registerRun,
  runsDirectory,
  stopRequestFor,
  type RunEntry,
} from '../../../../src/shared/runs/registry.js';
import { stopRuns } from '../../../../src/shared/runs/stop.js';

let state: string;
let env: Record<string, string>;
const children: ChildProcess[] = [];

beforeEach(() => {
  state = mkdtempSync(join(tmpdir(), 'arena-runs-'));
  env = { ARENA_STATE_DIR: state };
});
afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
  rmSync(state, { recursive: true, force: true });
});

/** a process that stands in for a run: a sleeping node that exits 0 on SIGTERM */
async function sleeper(): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    ['-e', "process.on('SIGTERM',()=>process.exit(0));setInterval(()=>{},1e3);console.log('ready')"],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  );
  children.push(child);
  // its handler is in place once it says so
  await new Promise((resolve) => child.stdout!.once('data', resolve));
  return child;
}

/** an entry for another process, as that process would have written it */
function entryFor(pid: number, edit: Partial<RunEntry> = {}): RunEntry {
  const entry: RunEntry = {
    schema_version: 1,
    run_id: `survival-${pid}`,
    pid,
    start_time: readStat(pid)!.startTime,
    cmdline: readCmdline(pid)!,
    command: 'survival',
    started_at: new Date().toISOString(),
    cwd: '/',
    stop_by: 'signal',
    ...edit,
  };
  writeFileSync(join(runsDirectory(env), `${entry.run_id}.json`), JSON.stringify(entry));
  return entry;
}

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code));
  });
}

describe('the run directory', () => {
  it('honours ARENA_STATE_DIR, then XDG_STATE_HOME, then ~/.local/state', () => {
    expect(runsDirectory({ ARENA_STATE_DIR: '/s' })).toBe('/s/runs');
    expect(runsDirectory({ XDG_STATE_HOME: '/x', HOME: '/h' })).toBe('/x/chaos-arena/runs');
    expect(runsDirectory({ HOME: '/h' })).toBe('/h/.local/state/chaos-arena/runs');
  });

  it('registers this process with its start time and command line, lists it, and forgets it on unregister', () => {
    const run = registerRun(env, { command: 'scenario run', cwd: '/tmp', stopBy: 'signal' });
    expect(run.entry.run_id).toMatch(/^scenario-run-[0-9a-f]{8}$/);
    expect(run.entry.start_time).toBe(readStat(process.pid)!.startTime);
    const listed = listRuns(env).active;
    expect(listed.map((e) => e.run_id)).toEqual([run.entry.run_id]);
    run.unregister();
    expect(listRuns(env).active).toEqual([]);
    expect(readdirSync(runsDirectory(env))).toEqual([]);
  });

  it('an entry whose pid now belongs to another process (start time or command line differ) is stale: cleaned, never signalled', async () => {
    const stranger = await sleeper();
    registerRun(env, { command: 'x', cwd: '/', stopBy: 'signal' }).unregister(); // creates the directory
    // a run that had this pid once: same pid, another start time (the kernel reused the pid)
    entryFor(stranger.pid!, { run_id: 'survival-old', start_time: readStat(stranger.pid!)!.startTime - 1 });
    entryFor(stranger.pid!, { run_id: 'survival-other', cmdline: 'node bin/arena.js survival' });
    const listing = listRuns(env);
    expect(listing.active).toEqual([]);
    expect(listing.cleaned.sort()).toEqual(['survival-old', 'survival-other']);
    expect(readdirSync(runsDirectory(env))).toEqual([]);
    // and stopping by that id finds nothing to stop: exit 2, the stranger untouched
    const err = await stopRuns(env, { runId: 'survival-old', timeoutMs: 1000 }).catch((e: unknown) => e);
    expect(isArenaError(err, 'unknown_run')).toBe(true);
    expect((err as { exitCode: number }).exitCode).toBe(2);
    await new Promise((r) => setTimeout(r, 100));
    expect(stranger.exitCode).toBeNull();
    expect(stranger.signalCode).toBeNull();
  });

  it('stops a registered process: a stop file first, then SIGTERM, and waits until it has exited', async () => {
    const run = await sleeper();
    registerRun(env, { command: 'x', cwd: '/', stopBy: 'signal' }).unregister();
    const entry = entryFor(run.pid!);
    const code = exited(run);
    const [outcome] = await stopRuns(env, { runId: entry.run_id, timeoutMs: 10_000 });
    expect(outcome).toMatchObject({ run_id: entry.run_id, pid: run.pid, outcome: 'stopped' });
    expect(await code).toBe(0);
    expect(listRuns(env).active).toEqual([]);
  });

  it('the stop file names who asked; a process finds it by its own pid', () => {
    const run = registerRun(env, { command: 'survival', cwd: '/', stopBy: 'file' });
    expect(stopRequestFor(env, process.pid)).toBeUndefined();
    writeFileSync(
      join(run.dir, `${run.entry.run_id}.stop`),
      JSON.stringify({ requested_at: new Date().toISOString(), by_pid: 4242 }),
    );
    expect(stopRequestFor(env, process.pid)?.by_pid).toBe(4242);
    run.unregister();
    expect(readdirSync(run.dir)).toEqual([]);
  });

  it('--all never stops the process asking, and garbage in the directory is left alone', async () => {
    const self = registerRun(env, { command: 'survival', cwd: '/', stopBy: 'signal' });
    writeFileSync(join(self.dir, 'notes.json'), '{"not":"an entry"}');
    expect(await stopRuns(env, { timeoutMs: 1000 })).toEqual([]);
    expect(listRuns(env).active.map((e) => e.run_id)).toEqual([self.entry.run_id]);
    expect(readFileSync(join(self.dir, 'notes.json'), 'utf8')).toContain('not');
    self.unregister();
  });
});
