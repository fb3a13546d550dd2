/** `arena worker --store URL` as the e2e tests start it: quiet env, stderr kept, stopped with Ctrl-C at cleanup. */
import { execa, type ResultPromise } from 'execa';
import { ARENA_BIN, REPO_ROOT } from './cli.js';

export interface StartedWorker {
  proc: ResultPromise;
  /** what the worker printed on stderr so far */
  log(): string;
}

export function startWorker(
  url: string,
  cleanups: Array<() => unknown>,
  options: { args?: string[]; env?: Record<string, string> } = {},
): StartedWorker {
  const proc = execa('node', [ARENA_BIN, 'worker', '--store', url, ...(options.args ?? [])], {
    reject: false,
    cwd: REPO_ROOT,
    extendEnv: false,
    env: { PATH: process.env.PATH ?? '', NO_COLOR: '1', CI: '1', ...options.env },
    forceKillAfterDelay: 10_000,
  });
  let log = '';
  proc.stderr!.on('data', (c: Buffer) => (log += c.toString()));
  cleanups.push(async () => {
    proc.kill('SIGINT');
    await proc;
  });
  // not the process itself: a promise-returning caller would wait for a returned process to end
  return { proc, log: () => log };
}
