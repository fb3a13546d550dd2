/**
 * Runs a user's shell command (probe, hook, leader lookup) in its own process
 * group with a hard timeout: on timeout the whole group is killed, so a hung
 * probe leaves nothing behind.
 */
import { spawn } from 'node:child_process';

export interface CommandRun {
  command: string;
  cwd: string;
  env?: Record<string, string>;
  timeoutMs: number;
}

export interface CommandResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

const KEEP = 8 * 1024;

export function runCommand(run: CommandRun): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('/bin/sh', ['-c', run.command], {
      cwd: run.cwd,
      env: { ...process.env, ...run.env },
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.on('data', (d: Buffer) => (stdout = (stdout + d.toString('utf8')).slice(-KEEP)));
    child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString('utf8')).slice(-KEEP)));
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid);
    }, run.timeoutMs);
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      // a probe command may leave a background child in its group: end it too
      killGroup(child.pid);
      resolve({ code, signal, stdout, stderr, timedOut });
    });
  });
}

function killGroup(pid: number | undefined): void {
  // no pid = the spawn failed; process.kill(-undefined) would not be ours to send
  if (pid === undefined || pid <= 1) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // the group is already gone
  }
}

/** a one-line reason from a failed run, for error messages */
export function describeFailure(result: CommandResult, timeoutMs: number): string {
  if (result.timedOut) return `did not finish within ${timeoutMs}ms`;
  const tail = (result.stderr.trim() || result.stdout.trim()).split('\n').slice(-2).join(' | ').slice(0, 300);
  const how = result.code !== null ? `exited with code ${result.code}` : `was killed by ${result.signal}`;
  return tail ? `${how}: ${tail}` : how;
}
