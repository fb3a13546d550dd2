/**
 * The target's optional start command: run in its own process group with its
 * output in the run directory's start.log, waited on until ready, and at the
 * end sent SIGTERM, then SIGKILL after the grace period, together with every
 * process that was below it (a supervisor's workers may sit in groups of
 * their own).
 */
import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { systemClock, type Clock } from '../../shared/clock.js';
import { RuntimeError } from '../../shared/errors.js';
import { descendants } from './proc.js';
import { readStat } from '../../shared/proc.js';
import { describeProbe, probeOnce } from './probes.js';
import { DEFAULT_GRACE_MS, DEFAULT_READY_TIMEOUT_MS, type StartSpec } from './spec.js';

export interface ManagedProcess {
  readonly pid: number;
  readonly startTime: number;
  readonly graceMs: number;
  /** set once the command has exited */
  exitStatus(): string | undefined;
  /** the last lines of its output */
  logTail(lines?: number): string;
  stop(): Promise<void>;
}

export interface ManagedOptions {
  baseDir: string;
  runDir: string;
  env: Record<string, string>;
  clock?: Clock;
  /** told the pid before anything waits on it, so the watchdog can end it if the arena dies */
  onSpawn(pid: number, startTime: number, graceMs: number): Promise<void>;
}

export async function startManaged(spec: StartSpec, options: ManagedOptions): Promise<ManagedProcess> {
  const clock = options.clock ?? systemClock;
  const cwd = resolve(options.baseDir, spec.cwd ?? '.');
  const logPath = join(options.runDir, 'start.log');
  const graceMs = spec.grace ?? DEFAULT_GRACE_MS;
  const logFd = openSync(logPath, 'a');
  let child: ReturnType<typeof spawn>;
  try {
    child = spawn('/bin/sh', ['-c', spec.command], {
      cwd,
      env: { ...process.env, ...options.env, ...spec.env },
      detached: true,
      stdio: ['ignore', logFd, logFd],
    });
  } finally {
    closeSync(logFd);
  }
  const spawnError = await new Promise<Error | undefined>((res) => {
    child.once('spawn', () => res(undefined));
    child.once('error', (err) => res(err));
  });
  if (spawnError || child.pid === undefined) {
    throw new RuntimeError(`start command could not be run in ${cwd}: ${spawnError?.message ?? 'no pid'}`, {
      code: 'start_failed',
    });
  }
  const pid = child.pid;
  let exit: string | undefined;
  child.on('exit', (code, signal) => (exit = code !== null ? `exited with code ${code}` : `was killed by ${signal}`));
  child.unref();
  const startTime = readStat(pid)?.startTime ?? 0;

  const logTail = (lines = 5) => {
    try {
      return readFileSync(logPath, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
    } catch {
      return '';
    }
  };

  const managed: ManagedProcess = {
    pid,
    startTime,
    graceMs,
    exitStatus: () => exit,
    logTail,
    async stop() {
      const below = descendants(pid)
        .filter((p) => p !== pid)
        .map((p) => ({ pid: p, start: readStat(p)?.startTime }));
      const groupAlive = () => {
        try {
          process.kill(-pid, 0);
          return true;
        } catch {
          return false;
        }
      };
      const survivors = () =>
        below.filter(
          (p) => p.start !== undefined && readStat(p.pid)?.startTime === p.start && readStat(p.pid)?.state !== 'Z',
        );
      const signalGroup = (sig: NodeJS.Signals) => {
        try {
          process.kill(-pid, sig);
        } catch {
          // group already empty
        }
      };
      // a stopped process would not act on SIGTERM until continued
      signalGroup('SIGCONT');
      signalGroup('SIGTERM');
      const until = clock.now() + graceMs;
      while (clock.now() < until && (groupAlive() || survivors().length > 0)) await clock.sleep(50);
      signalGroup('SIGKILL');
      for (const p of survivors()) {
        try {
          process.kill(p.pid, 'SIGKILL');
        } catch {
          // gone
        }
      }
    },
  };

  try {
    await options.onSpawn(pid, startTime, graceMs);
    await waitReady(spec, managed, cwd, options.env, clock);
  } catch (err) {
    await managed.stop();
    throw err;
  }
  return managed;
}

async function waitReady(
  spec: StartSpec,
  managed: ManagedProcess,
  cwd: string,
  env: Record<string, string>,
  clock: Clock,
): Promise<void> {
  const ready = spec.ready;
  const timeoutMs = ready?.timeout ?? DEFAULT_READY_TIMEOUT_MS;
  const probe =
    ready &&
    ('http' in ready
      ? { http: ready.http }
      : 'tcp' in ready
        ? { tcp: ready.tcp }
        : 'command' in ready
          ? { command: ready.command }
          : undefined);
  const deadline = clock.now() + timeoutMs;
  let lastProblem = 'not probed yet';
  for (;;) {
    const exit = managed.exitStatus();
    if (exit !== undefined) {
      const tail = managed.logTail();
      throw new RuntimeError(
        `start command ${JSON.stringify(spec.command)} ${exit} before it was ready; it must keep running in the foreground${tail ? `. Its last output:\n${tail}` : ''}`,
        { code: 'start_failed' },
      );
    }
    if (!probe) {
      // no ready probe: give it a moment to fail at once, then the agents' probes decide
      await clock.sleep(200);
      if (managed.exitStatus() === undefined) return;
      continue;
    }
    const outcome = await probeOnce(probe, Math.min(1000, Math.max(1, deadline - clock.now())), { cwd, env });
    if (outcome.ok) return;
    lastProblem = outcome.problem;
    if (clock.now() >= deadline) {
      throw new RuntimeError(
        `start command ${JSON.stringify(spec.command)} was not ready within ${timeoutMs}ms: ${describeProbe(probe)} kept failing (${lastProblem})`,
        { code: 'start_timeout' },
      );
    }
    await clock.sleep(100);
  }
}
