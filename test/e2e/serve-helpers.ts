/**
 * Starts the real `bin/arena.js serve --port 0` and reads the URL it prints,
 * so e2e tests talk to the process exactly as a user would.
 */
import { execa, type ResultPromise } from 'execa';
import { ARENA_BIN, REPO_ROOT } from '../helpers/cli.js';

export interface ServeProcess {
  url: string;
  proc: ResultPromise;
  stdout(): string;
  /** SIGTERM and wait for the exit */
  stop(): Promise<{ exitCode: number | undefined; stdout: string; stderr: string }>;
}

export async function startServe(args: string[] = [], env: Record<string, string> = {}): Promise<ServeProcess> {
  const proc = execa('node', [ARENA_BIN, 'serve', '--port', '0', ...args], {
    reject: false,
    cwd: REPO_ROOT,
    extendEnv: false,
    env: { PATH: process.env.PATH ?? '', NO_COLOR: '1', CI: '1', ...env },
    // no wall-clock kill: a 60 s one SIGTERMed busy servers mid-test (2 × 1,000 actions on a loaded machine),
    // and their shutdown answered the actions still running with 503s; tests stop servers in afterEach
    // a graceful stop on a loaded machine can take a few seconds; do not SIGKILL it after execa's default 5 s
    forceKillAfterDelay: 20_000,
  });
  let out = '';
  let err = '';
  proc.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  proc.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`arena serve printed no URL in 15 s; stdout: ${out} stderr: ${err}`)),
      15_000,
    );
    const check = () => {
      const m = /serving on (http:\/\/[^\s]+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    };
    proc.stdout!.on('data', check);
    void proc.then((r) => {
      clearTimeout(timer);
      reject(new Error(`arena serve exited ${r.exitCode} before listening: ${err}`));
    });
  });
  let stopped: Promise<{ exitCode: number | undefined; stdout: string; stderr: string }> | undefined;
  return {
    url,
    proc,
    stdout: () => out,
    stop: () =>
      (stopped ??= (async () => {
        proc.kill('SIGTERM');
        const r = await proc;
        return { exitCode: r.exitCode, stdout: out, stderr: err };
      })()),
  };
}

export interface HttpResult {
  status: number;
  headers: Headers;
  text: string;
  json: any;
}

export async function http(
  base: string,
  method: string,
  path: string,
  options: { key?: string; body?: string | object; headers?: Record<string, string> } = {},
): Promise<HttpResult> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers['X-API-Key'] = options.key;
  let body: string | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    headers['Content-Type'] ??= 'application/json';
  }
  const res = await fetch(base + path, { method, headers, body });
  const text = await res.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}
