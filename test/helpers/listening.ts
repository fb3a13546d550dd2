/** Starts a long-running process and waits for the URL it prints, so tests talk to it as a user would. */
import { execa, type ResultPromise } from 'execa';
import { REPO_ROOT } from './cli.js';

export interface Listening {
  url: string;
  proc: ResultPromise;
  output(): string;
  /** SIGTERM (or the given signal) and wait for the exit */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

export async function startListening(
  command: string,
  args: string[],
  options: { env?: Record<string, string>; pattern?: RegExp } = {},
): Promise<Listening> {
  const proc = execa(command, args, {
    reject: false,
    cwd: REPO_ROOT,
    extendEnv: false,
    env: { PATH: process.env.PATH ?? '', NO_COLOR: '1', CI: '1', ...options.env },
    timeout: 120_000,
    forceKillAfterDelay: 10_000,
  });
  let out = '';
  proc.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  proc.stderr!.on('data', (c: Buffer) => (out += c.toString()));
  const pattern = options.pattern ?? /(http:\/\/127\.0\.0\.1:\d+)/;
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${command} ${args.join(' ')} printed no URL in 20 s: ${out}`)),
      20_000,
    );
    const check = () => {
      const m = pattern.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    };
    proc.stdout!.on('data', check);
    proc.stderr!.on('data', check);
    void proc.then((r) => {
      clearTimeout(timer);
      reject(new Error(`${command} exited ${r.exitCode} before listening: ${out}`));
    });
  });
  return {
    url,
    proc,
    output: () => out,
    async stop(signal = 'SIGTERM') {
      if (proc.exitCode === null && !proc.killed) proc.kill(signal);
      await proc;
    },
  };
}
