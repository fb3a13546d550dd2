/**
 * A real MCP server for the MCP proxy's tests: @modelcontextprotocol/server-everything from npm,
 * run as a child process in its stdio or streamable-HTTP mode, and the official SDK client.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

export const EVERYTHING = fileURLToPath(
  new URL('../../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url),
);
const LOOPBACK = fileURLToPath(new URL('../fixtures/mcp/loopback-listen.mjs', import.meta.url));

export interface RunningServer {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** server-everything in streamable-HTTP mode on a free loopback port; its endpoint is /mcp */
export async function startEverythingHttp(): Promise<RunningServer> {
  const child = spawn(process.execPath, ['--import', LOOPBACK, EVERYTHING, 'streamableHttp'], {
    env: { PATH: process.env.PATH ?? '', PORT: '0' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const stop = () => stopChild(child);
  const port = await new Promise<number>((resolve, reject) => {
    let seen = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const m = /LISTENING (\d+)/.exec(seen);
      if (m) resolve(Number(m[1]));
    });
    child.once('exit', (code) => reject(new Error(`server-everything exited (${code}) before listening: ${seen}`)));
  }).catch(async (err: unknown) => {
    await stop();
    throw err;
  });
  return { url: `http://127.0.0.1:${port}/mcp`, child, stop };
}

export function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

export async function httpClient(url: string): Promise<Client> {
  const client = new Client({ name: 'arena-test-agent', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

export async function postJson(url: string, body: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

export async function getJson(url: string): Promise<any> {
  return (await fetch(url)).json();
}

/** polls `check` until it holds (a condition the proxy reaches on its own, e.g. after a client's cancel arrives) */
export async function eventually(check: () => Promise<boolean> | boolean, timeoutMs = 3000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}
