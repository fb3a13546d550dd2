/**
 * The arena's side of the watchdog: starts it detached (its own session, so a
 * Ctrl-C to the arena's group or a closed terminal does not reach it), waits
 * for its `ready`, and tells it every pid before it is paused and every start
 * command as soon as it runs. Each record is in the pipe before the action it
 * covers, so there is no moment at which the arena could die with a paused
 * pid the watchdog does not know.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import { RuntimeError } from '../../shared/errors.js';
import { WATCHDOG_SOURCE } from './watchdog-script.js';

export interface TrackedPid {
  pid: number;
  start: number;
}

export type WatchdogRecord =
  | { op: 'pause' | 'resume'; pids: TrackedPid[] }
  | { op: 'revert'; key: string; url: string; method?: string }
  | { op: 'reverted'; key: string }
  | { op: 'group'; pid: number; start: number; graceMs: number }
  | { op: 'ungroup'; pid: number };

export interface Watchdog {
  readonly pid: number;
  tell(record: WatchdogRecord): Promise<void>;
  /** the run ended normally: the watchdog exits without touching anything */
  finish(): Promise<void>;
}

export async function startWatchdog(runDir: string, timeoutMs = 5000): Promise<Watchdog> {
  const script = join(runDir, 'watchdog.cjs');
  writeFileSync(script, WATCHDOG_SOURCE);
  const logFd = openSync(join(runDir, 'watchdog.log'), 'a');
  let child: ChildProcess;
  try {
    child = spawn(process.execPath, [script], {
      detached: true,
      stdio: ['pipe', 'pipe', logFd],
      env: { PATH: process.env.PATH ?? '', ARENA_WATCHDOG_PARENT: String(process.pid) },
    });
  } finally {
    closeSync(logFd);
  }
  const stdin = child.stdin as Writable;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () =>
        fail(
          new RuntimeError(`the watchdog did not start within ${timeoutMs}ms (see ${join(runDir, 'watchdog.log')})`),
        ),
      timeoutMs,
    );
    const fail = (err: Error) => {
      clearTimeout(timer);
      if (child.pid !== undefined) child.kill('SIGKILL');
      reject(err);
    };
    child.once('error', (err) => fail(new RuntimeError(`the watchdog could not start: ${err.message}`)));
    child.once('exit', (code) =>
      fail(new RuntimeError(`the watchdog exited at start (code ${code}); see ${join(runDir, 'watchdog.log')}`)),
    );
    child.stdout!.once('data', () => {
      clearTimeout(timer);
      child.removeAllListeners('exit');
      child.removeAllListeners('error');
      resolve();
    });
  });
  child.stdout!.destroy();
  // the watchdog must never keep the arena alive, nor die with it
  child.unref();
  (stdin as unknown as { unref?: () => void }).unref?.();
  stdin.on('error', () => {});
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const write = (line: string) =>
    new Promise<void>((resolve, reject) => {
      if (stdin.destroyed || !stdin.writable)
        return reject(new RuntimeError('the watchdog is gone: refusing to act without it'));
      stdin.write(`${line}\n`, (err) =>
        err ? reject(new RuntimeError(`the watchdog did not take the record: ${err.message}`)) : resolve(),
      );
    });

  return {
    pid: child.pid!,
    tell: (record) => write(JSON.stringify(record)),
    async finish() {
      await write(JSON.stringify({ op: 'done' })).catch(() => {});
      stdin.end();
      await Promise.race([exited, new Promise((r) => setTimeout(r, 2000).unref())]);
    },
  };
}
