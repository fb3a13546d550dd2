/**
 * The run directory (DESIGN §16): every run on this machine writes one small JSON entry there while it
 * lasts, so `arena ps` and `arena stop` find runs started from other terminals. An entry names its
 * process by pid *and* /proc start time and command line: a pid the kernel has since given to another
 * process no longer matches, so the entry counts as stale and is never signalled. Entries are written
 * whole (a temporary file renamed into place) in a directory only the user can read.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { UsageError, errorMessage } from '../errors.js';
import { readCmdline, readStat } from '../proc.js';

export interface RunEntry {
  schema_version: 1;
  run_id: string;
  pid: number;
  /** /proc/PID/stat start time (clock ticks since boot): with the pid, this process and no other */
  start_time: number;
  /** /proc/PID/cmdline as registered, checked again before any signal */
  cmdline: string;
  /** what runs: `scenario run`, `survival`, `serve` … */
  command: string;
  started_at: string;
  cwd: string;
  /**
   * how it is told to stop: `signal` (SIGTERM after the stop file is written: the command's interrupt
   * path reverts and writes the partial report) or `file` (a long-lived server that watches for its
   * stop file, stops its runs and stays up)
   */
  stop_by: 'signal' | 'file';
  /** serve: where it listens */
  url?: string;
}

/** `arena stop` leaves this beside the entry before it signals, so the run can tell a stop from a Ctrl-C */
export interface StopRequest {
  requested_at: string;
  by_pid: number;
}

/**
 * `$ARENA_STATE_DIR/runs`, else `$XDG_STATE_HOME/chaos-arena/runs`, else
 * `~/.local/state/chaos-arena/runs` (the XDG base directory default).
 */
export function runsDirectory(env: Readonly<Record<string, string | undefined>>): string {
  if (env.ARENA_STATE_DIR) return join(env.ARENA_STATE_DIR, 'runs');
  const state = env.XDG_STATE_HOME || join(env.HOME || homedir(), '.local', 'state');
  return join(state, 'chaos-arena', 'runs');
}

const entryFile = (dir: string, runId: string) => join(dir, `${runId}.json`);
export const stopFile = (dir: string, runId: string): string => join(dir, `${runId}.stop`);

export interface RegisteredRun {
  readonly entry: RunEntry;
  readonly dir: string;
  /** removes the entry and any stop request; safe to call more than once */
  unregister(): void;
}

/** registers this process's run; throws when the directory cannot be written */
export function registerRun(
  env: Readonly<Record<string, string | undefined>>,
  info: { command: string; cwd: string; stopBy: RunEntry['stop_by']; url?: string },
): RegisteredRun {
  const dir = runsDirectory(env);
  const stat = readStat(process.pid);
  const cmdline = readCmdline(process.pid);
  if (stat === undefined || cmdline === undefined)
    throw new UsageError('this system has no /proc to record the run by', { code: 'no_proc' });
  const entry: RunEntry = {
    schema_version: 1,
    run_id: `${info.command.replace(/\W+/g, '-')}-${randomBytes(4).toString('hex')}`,
    pid: process.pid,
    start_time: stat.startTime,
    cmdline,
    command: info.command,
    started_at: new Date().toISOString(),
    cwd: info.cwd,
    stop_by: info.stopBy,
    ...(info.url !== undefined ? { url: info.url } : {}),
  };
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  writeWhole(entryFile(dir, entry.run_id), `${JSON.stringify(entry, null, 2)}\n`);
  let isGone = false;
  return {
    entry,
    dir,
    unregister() {
      if (isGone) return;
      isGone = true;
      removeRun(dir, entry.run_id);
    },
  };
}

/** the running process an entry names, checked now: same pid, start time, command line and owner */
export function isSameProcess(entry: RunEntry): boolean {
  const stat = readStat(entry.pid);
  if (stat === undefined || stat.state === 'Z' || stat.state === 'X') return false;
  if (stat.startTime !== entry.start_time || readCmdline(entry.pid) !== entry.cmdline) return false;
  // a process of another user is never ours to stop, whatever an entry says
  try {
    return process.getuid === undefined || statSync(`/proc/${entry.pid}`).uid === process.getuid();
  } catch {
    return false;
  }
}

export interface RunListing {
  active: RunEntry[];
  /** entries whose process is gone (or is now another process): removed */
  cleaned: string[];
}

/** the runs active now, oldest first; stale entries are removed on the way */
export function listRuns(env: Readonly<Record<string, string | undefined>>): RunListing {
  const dir = runsDirectory(env);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return { active: [], cleaned: [] };
  }
  const active: RunEntry[] = [];
  const cleaned: string[] = [];
  for (const name of names) {
    if (!name.endsWith('.json')) continue;
    const entry = readEntry(join(dir, name));
    if (entry === undefined) continue; // not ours to judge (or being written): left alone
    if (!isOwnFile(join(dir, name))) continue; // written by someone else: never acted on, never removed
    if (isSameProcess(entry)) active.push(entry);
    else {
      removeRun(dir, entry.run_id);
      cleaned.push(entry.run_id);
    }
  }
  active.sort((a, b) => a.started_at.localeCompare(b.started_at) || a.run_id.localeCompare(b.run_id));
  return { active, cleaned };
}

/** a file this user owns (an entry another user planted in a shared directory is ignored) */
function isOwnFile(path: string): boolean {
  try {
    return process.getuid === undefined || statSync(path).uid === process.getuid();
  } catch {
    return false;
  }
}

/** the stop request left for one of the runs process `pid` registered, if any (read when a SIGTERM arrives) */
export function stopRequestFor(
  env: Readonly<Record<string, string | undefined>>,
  pid: number,
): StopRequest | undefined {
  const dir = runsDirectory(env);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return undefined;
  }
  for (const name of names) {
    if (!name.endsWith('.json')) continue;
    const entry = readEntry(join(dir, name));
    if (entry?.pid !== pid) continue;
    const request = readStopRequest(dir, entry.run_id);
    if (request) return request;
  }
  return undefined;
}

/** the stop request left for a run, if any */
export function readStopRequest(dir: string, runId: string): StopRequest | undefined {
  try {
    const value = JSON.parse(readFileSync(stopFile(dir, runId), 'utf8')) as Partial<StopRequest>;
    return typeof value.by_pid === 'number' && typeof value.requested_at === 'string'
      ? { by_pid: value.by_pid, requested_at: value.requested_at }
      : undefined;
  } catch {
    return undefined;
  }
}

export function writeStopRequest(dir: string, runId: string, request: StopRequest): void {
  writeWhole(stopFile(dir, runId), `${JSON.stringify(request)}\n`);
}

export function clearStopRequest(dir: string, runId: string): void {
  rmSync(stopFile(dir, runId), { force: true });
}

function removeRun(dir: string, runId: string): void {
  rmSync(entryFile(dir, runId), { force: true });
  clearStopRequest(dir, runId);
}

function readEntry(path: string): RunEntry | undefined {
  try {
    const value = JSON.parse(readFileSync(path, 'utf8')) as Partial<RunEntry>;
    if (
      value.schema_version !== 1 ||
      typeof value.run_id !== 'string' ||
      !/^[\w-]+$/.test(value.run_id) ||
      !Number.isInteger(value.pid) ||
      (value.pid ?? 0) <= 1 ||
      typeof value.start_time !== 'number' ||
      typeof value.cmdline !== 'string' ||
      typeof value.command !== 'string' ||
      typeof value.started_at !== 'string' ||
      (value.stop_by !== 'signal' && value.stop_by !== 'file')
    )
      return undefined;
    return value as RunEntry;
  } catch {
    return undefined;
  }
}

/** written to a temporary name and renamed: a reader never sees half an entry */
function writeWhole(path: string, text: string): void {
  const tmp = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, text, { mode: 0o600 });
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw new UsageError(`cannot write ${path}: ${errorMessage(err)}`, { code: 'run_directory_not_writable' });
  }
}
