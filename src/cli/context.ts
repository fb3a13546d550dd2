/**
 * Everything a command needs from the outside world, injected so commands are
 * testable and never read globals directly.
 */
export interface Writer {
  write(chunk: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

export interface CliContext {
  stdout: Writer;
  stderr: Writer;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** aborted on the first Ctrl-C / SIGTERM */
  signal: AbortSignal;
}
