/**
 * The emergency stop (`arena stop`, DESIGN §16): tells each chosen run to stop and waits until it has.
 * A run started by the CLI is told with a stop file and SIGTERM, and its own interrupt path reverts every
 * fault and writes its partial report (status `stopped`, exit 130); it has stopped when its process has
 * exited. A server (`arena serve`) watches for its stop file, stops its runs, reverts every fault and
 * removes the file; it has stopped when the file is gone. Before a signal, the process is checked again
 * against its entry (pid, start time, command line, owner): a reused pid is never signalled.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { NotFoundError } from '../errors.js';
import {
  clearStopRequest,
  isSameProcess,
  listRuns,
  readStopRequest,
  runsDirectory,
  writeStopRequest,
  type RunEntry,
} from './registry.js';

export interface StopOutcome {
  run_id: string;
  pid: number;
  command: string;
  /** `stopped`: it ended (a server: it stopped its runs); `timeout`: still going after the wait; `refused`: not signalled */
  outcome: 'stopped' | 'timeout' | 'refused';
  detail?: string;
  /** from the request to the run's end, as this process saw it */
  elapsed_ms: number;
}

export interface StopOptions {
  /** one run, or every active run when undefined */
  runId?: string;
  /** how long to wait for each run to end */
  timeoutMs: number;
  /** how often to look whether it has */
  pollMs?: number;
  signal?: AbortSignal;
}

/** stops the chosen runs at once and waits for each; NotFoundError for an id no active run has */
export async function stopRuns(
  env: Readonly<Record<string, string | undefined>>,
  options: StopOptions,
): Promise<StopOutcome[]> {
  const dir = runsDirectory(env);
  const { active } = listRuns(env);
  // never this process itself (an `arena stop` is not a run, but a library caller might be one)
  const others = active.filter((e) => e.pid !== process.pid);
  const chosen = options.runId === undefined ? others : others.filter((e) => e.run_id === options.runId);
  if (options.runId !== undefined && chosen.length === 0)
    throw new NotFoundError(`no active run ${options.runId} on this machine`, {
      code: 'unknown_run',
      hint: `arena ps lists the active runs (${dir})`,
    });
  return Promise.all(chosen.map((entry) => stopOne(dir, entry, options)));
}

async function stopOne(dir: string, entry: RunEntry, options: StopOptions): Promise<StopOutcome> {
  const t0 = performance.now();
  const done = (outcome: StopOutcome['outcome'], detail?: string): StopOutcome => ({
    run_id: entry.run_id,
    pid: entry.pid,
    command: entry.command,
    outcome,
    ...(detail !== undefined ? { detail } : {}),
    elapsed_ms: Math.round(performance.now() - t0),
  });
  writeStopRequest(dir, entry.run_id, { requested_at: new Date().toISOString(), by_pid: process.pid });
  if (entry.stop_by === 'signal') {
    // checked again right before the signal: the process may have ended (and its pid been reused) since listing
    if (!isSameProcess(entry)) {
      clearStopRequest(dir, entry.run_id);
      return done('stopped', 'it had already ended');
    }
    try {
      process.kill(entry.pid, 'SIGTERM');
    } catch (err) {
      clearStopRequest(dir, entry.run_id);
      return done('refused', `SIGTERM to pid ${entry.pid} failed: ${(err as Error).message}`);
    }
  }
  const pollMs = options.pollMs ?? 20;
  const ended = () =>
    !isSameProcess(entry) || (entry.stop_by === 'file' && readStopRequest(dir, entry.run_id) === undefined);
  while (!ended()) {
    if (performance.now() - t0 >= options.timeoutMs)
      return done('timeout', `still running after ${options.timeoutMs}ms`);
    try {
      await sleep(pollMs, undefined, options.signal ? { signal: options.signal } : {});
    } catch {
      return done('timeout', 'the wait was interrupted');
    }
  }
  return done('stopped');
}
