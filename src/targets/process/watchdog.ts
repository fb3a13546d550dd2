/**
 * The arena's side of the watchdog: starts it detached (its own session, so a
 * Ctrl-C to the arena's group or a closed terminal does not reach it), waits
 * for its `ready`, and tells it every pid before it is paused and every start
 * command as soon as it runs. Each record is in the pipe before the action it
 * covers, so there is no moment at which the arena could die with a paused
 * pid the watchdog does not know.
 *
 * A watchdog that dies while the arena runs (killed, OOM) is started again
 * and told everything still in force, so an arena killed after it still
 * leaves nothing stopped; one that cannot be started again is reported
 * through `onLost` and every later record is refused.
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
  | {
      op: 'pause';
      pids: TrackedPid[] /** wall-clock ms: the watchdog resumes them then, whatever the arena does */;
      until?: number;
    }
  | { op: 'resume'; pids: TrackedPid[] }
  | { op: 'revert'; key: string; url: string; method?: string; headers?: Record<string, string> }
  | { op: 'reverted'; key: string }
  | { op: 'group'; pid: number; start: number; graceMs: number }
  | { op: 'ungroup'; pid: number };

export interface Watchdog {
  /** the watchdog process now (a new one after a restart) */
  readonly pid: number;
  tell(record: WatchdogRecord): Promise<void>;
  /** the run ended normally: the watchdog exits without touching anything */
  finish(): Promise<void>;
}

export interface WatchdogOptions {
  timeoutMs?: number;
  /** the watchdog died and could not be started again: the run must not go on without it */
  onLost?: (err: Error) => void;
}

/** What is still in force, keyed as the watchdog keys it: a restarted watchdog is told all of it. */
class WatchdogState {
  private readonly paused = new Map<string, WatchdogRecord>();
  private readonly reverts = new Map<string, WatchdogRecord>();
  private readonly groups = new Map<number, WatchdogRecord>();

  apply(record: WatchdogRecord): void {
    switch (record.op) {
      case 'pause':
        for (const p of record.pids) this.paused.set(`${p.pid}:${p.start}`, { ...record, pids: [p] });
        break;
      case 'resume':
        for (const p of record.pids) this.paused.delete(`${p.pid}:${p.start}`);
        break;
      case 'revert':
        this.reverts.set(record.key, record);
        break;
      case 'reverted':
        this.reverts.delete(record.key);
        break;
      case 'group':
        this.groups.set(record.pid, record);
        break;
      case 'ungroup':
        this.groups.delete(record.pid);
        break;
    }
  }

  records(): WatchdogRecord[] {
    return [...this.paused.values(), ...this.reverts.values(), ...this.groups.values()];
  }
}

interface Spawned {
  pid: number;
  write(line: string): Promise<void>;
  exited: Promise<void>;
  end(): void;
}

export async function startWatchdog(runDir: string, options: WatchdogOptions = {}): Promise<Watchdog> {
  const timeoutMs = options.timeoutMs ?? 5000;
  const state = new WatchdogState();
  let current = await spawnWatchdog(runDir, timeoutMs);
  let restarting: Promise<Spawned> | undefined;
  let lost: Error | undefined;
  let finished = false;

  const restart = async (dead: Spawned): Promise<Spawned> => {
    try {
      const next = await spawnWatchdog(runDir, timeoutMs);
      for (const record of state.records()) await next.write(JSON.stringify(record));
      await next.write(JSON.stringify({ op: 'restored' }));
      current = next;
      watch(next);
      return next;
    } catch (err) {
      lost = new RuntimeError(
        `the watchdog (pid ${dead.pid}) died and could not be started again: ${(err as Error).message}`,
        { code: 'watchdog_lost' },
      );
      options.onLost?.(lost);
      throw lost;
    } finally {
      restarting = undefined;
    }
  };
  const watch = (spawned: Spawned) =>
    void spawned.exited.then(() => {
      if (finished || current !== spawned) return;
      restarting = restart(spawned);
      restarting.catch(() => {});
    });
  watch(current);

  /** the live watchdog, after a restart under way */
  const live = async (): Promise<Spawned> => {
    if (lost) throw lost;
    return restarting ?? current;
  };

  return {
    get pid() {
      return current.pid;
    },
    async tell(record) {
      if (lost) throw lost;
      // kept first: a watchdog that dies before it reads the line is told it again on restart
      state.apply(record);
      const line = JSON.stringify(record);
      const target = await live();
      try {
        await target.write(line);
      } catch (err) {
        // it died under the write: its restart replays the state, this record included
        await Promise.race([target.exited, new Promise((r) => setTimeout(r, 1000))]);
        if (current === target && !restarting) throw err;
        await live();
      }
    },
    async finish() {
      finished = true;
      const w = await live().catch(() => undefined);
      if (!w) return;
      await w.write(JSON.stringify({ op: 'done' })).catch(() => {});
      w.end();
      await Promise.race([w.exited, new Promise((r) => setTimeout(r, 2000).unref())]);
    },
  };
}

async function spawnWatchdog(runDir: string, timeoutMs: number): Promise<Spawned> {
  const script = join(runDir, 'watchdog.cjs');
  writeFileSync(script, WATCHDOG_SOURCE);
  const logFd = openSync(join(runDir, 'watchdog.log'), 'a');
  let child: ChildProcess;
  try {
    child = spawn(process.execPath, [script], {
      detached: true,
      stdio: ['pipe', 'pipe', logFd],
      env: { PATH: process.env.PATH ?? '', ARENA_WATCHDOG_PARENT: String(process.pid), ARENA_WATCHDOG_RUN_DIR: runDir },
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

  return {
    pid: child.pid!,
    exited,
    end: () => stdin.end(),
    write: (line) =>
      new Promise<void>((resolve, reject) => {
        if (stdin.destroyed || !stdin.writable)
          return reject(new RuntimeError('the watchdog is gone: refusing to act without it'));
        stdin.write(`${line}\n`, (err) =>
          err ? reject(new RuntimeError(`the watchdog did not take the record: ${err.message}`)) : resolve(),
        );
      }),
  };
}
