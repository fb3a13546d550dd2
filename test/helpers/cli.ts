import { execa } from 'execa';
import { fileURLToPath } from 'node:url';

export const ARENA_BIN = fileURLToPath(new URL('../../bin/arena.js', import.meta.url));
export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Runs the real bin/arena.js as CI would: no TTY, no colour, minimal env. */
export function arena(
  args: string[],
  options: { env?: Record<string, string>; input?: string; cwd?: string; timeout?: number } = {},
) {
  return execa('node', [ARENA_BIN, ...args], {
    reject: false,
    cwd: options.cwd ?? REPO_ROOT,
    input: options.input,
    timeout: options.timeout ?? 60_000,
    extendEnv: false,
    env: { PATH: process.env.PATH ?? '', NO_COLOR: '1', CI: '1', ...options.env },
  });
}
