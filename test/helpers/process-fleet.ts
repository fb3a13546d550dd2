/**
 * Helpers for process-target tests: free loopback ports, a tiny fleet's
 * target spec (test/fixtures/process-fleet), and /proc checks that a test's
 * processes are gone or not stopped.
 */
import { readdirSync, readFileSync } from 'node:fs';
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import {
  processTargetSchema,
  type ProcessTargetInput,
  type ProcessTargetSpec,
} from '../../src/targets/process/spec.js';

export const FLEET_DIR = fileURLToPath(new URL('../fixtures/process-fleet/', import.meta.url));

/*
 * Ports from below the kernel's ephemeral range (ip_local_port_range, 32768-60999 by default). A
 * port taken with listen(0) and closed again is free for the kernel to hand out as the local end
 * of any outgoing connection on the machine before the child binds it; under the suite's load that
 * happened (a supervisor failed with EADDRINUSE). Each vitest worker slot takes its own slice, and a
 * process walks its slice from a random start, so concurrent workers and files do not pick alike.
 * Seven slices of 1,700 in 20000-31899: one for each of up to seven workers (vitest.config.ts runs seven).
 */
const PORTS_FROM = 20_000;
const SLICES = 7;
const SLICE = 1_700;
let cursor = -1;

function listensOn(port: number): Promise<net.Server | undefined> {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.once('error', () => resolve(undefined));
    s.listen(port, '127.0.0.1', () => resolve(s));
  });
}

/** `n` distinct loopback ports nothing listens on now and the kernel will not give to a connection */
export async function freePorts(n: number): Promise<number[]> {
  const slot = (Number(process.env.VITEST_POOL_ID) || 1) - 1;
  const first = PORTS_FROM + (slot % SLICES) * SLICE;
  if (cursor < 0) cursor = Math.floor(Math.random() * SLICE);
  const held: net.Server[] = [];
  try {
    for (let tries = 0; held.length < n; tries++) {
      if (tries >= SLICE) throw new Error(`no ${n} free ports in ${first}-${first + SLICE - 1}`);
      const s = await listensOn(first + (cursor++ % SLICE));
      if (s) held.push(s);
    }
    return held.map((s) => (s.address() as net.AddressInfo).port);
  } finally {
    await Promise.all(held.map((s) => new Promise((r) => s.close(r))));
  }
}

/**
 * A base port for a shipped example's one port setting (ARENA_EXAMPLE_PORT): base + each offset is
 * free now, from the same slice and cursor as freePorts (so concurrent workers and files do not pick alike).
 */
export async function freeBasePort(offsets: readonly number[]): Promise<number> {
  const slot = (Number(process.env.VITEST_POOL_ID) || 1) - 1;
  const first = PORTS_FROM + (slot % SLICES) * SLICE;
  const span = Math.max(...offsets) + 1;
  if (cursor < 0) cursor = Math.floor(Math.random() * SLICE);
  for (let tries = 0; tries < SLICE; tries++) {
    const base = first + (cursor++ % (SLICE - span));
    const held = await Promise.all(offsets.map((o) => listensOn(base + o)));
    await Promise.all(held.map((s) => s && new Promise((r) => s.close(r))));
    if (held.every(Boolean)) {
      cursor += span; // the next pick starts past this block
      return base;
    }
  }
  throw new Error(`no free block of offsets ${offsets.join(',')} in ${first}-${first + SLICE - 1}`);
}

export interface TinyFleet {
  front: number;
  ports: number[];
  ids: string[];
  input: ProcessTargetInput;
  spec: ProcessTargetSpec;
}

/** a supervisor with `n` agents (ids unique to this call, so tests can find their own processes) */
export async function tinyFleet(options: {
  n?: number;
  restartDelayMs?: number;
  tag: string;
  /** the front door calls worker i on via[i] (a fault proxy) instead of its own port */
  via?: number[];
  edit?: (input: ProcessTargetInput) => void;
}): Promise<TinyFleet> {
  const n = options.n ?? 3;
  const [front, ...ports] = await freePorts(n + 1);
  const ids = ports.map((_, i) => `${options.tag}-${i + 1}`);
  const input: ProcessTargetInput = {
    kind: 'process',
    name: `tiny-${options.tag}`,
    start: {
      command: `exec node supervisor.mjs ${front} ${options.restartDelayMs ?? 200} ${ids.map((id, i) => `${id}=${ports[i]}${options.via ? `:${options.via[i]}` : ''}`).join(' ')}`,
      ready: { http: `http://127.0.0.1:${front}/healthz`, timeout: '10s' },
      grace: '1s',
    },
    agents: ids.map((id, i) => ({
      id,
      pid: { port: ports[i]! },
      health: { http: `http://127.0.0.1:${ports[i]}/healthz`, interval: '50ms', timeout: '300ms' },
    })),
    leader: { http: `http://127.0.0.1:${front}/leader`, json: '$.leader' },
    workload: {
      rate: '40/s',
      request: { method: 'POST', url: `http://127.0.0.1:${front}/task`, timeout: '1s' },
      expect: { status: 200, json: { path: '$.ok', equals: true } },
    },
  };
  options.edit?.(input);
  return { front, ports, ids, input, spec: processTargetSchema.parse(input) };
}

function stat(pid: number): { state: string; ppid: number; cmd: string } | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'latin1');
    const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { state: fields[0]!, ppid: Number(fields[1]), cmd };
  } catch {
    return undefined;
  }
}

export function procState(pid: number): string | undefined {
  return stat(pid)?.state;
}

/** live (non-zombie) processes whose command line contains `needle` */
export function processesMatching(needle: string): Array<{ pid: number; state: string; ppid: number; cmd: string }> {
  const out: Array<{ pid: number; state: string; ppid: number; cmd: string }> = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    const s = stat(Number(name));
    if (s && s.state !== 'Z' && s.cmd.includes(needle)) out.push({ pid: Number(name), ...s });
  }
  return out;
}

/**
 * live (non-zombie) processes whose environment holds `name=value`. Children inherit it, so a test
 * that sets a value of its own (a temp path) finds exactly the processes its run started, even when
 * other test files run the same example scripts at the same time.
 */
export function processesWithEnv(
  name: string,
  value: string,
): Array<{ pid: number; state: string; ppid: number; cmd: string }> {
  const entry = `${name}=${value}`;
  const out: Array<{ pid: number; state: string; ppid: number; cmd: string }> = [];
  for (const pidText of readdirSync('/proc')) {
    if (!/^\d+$/.test(pidText) || Number(pidText) === process.pid) continue;
    let environ: string[];
    try {
      environ = readFileSync(`/proc/${pidText}/environ`, 'utf8').split('\0');
    } catch {
      continue;
    }
    if (!environ.includes(entry)) continue;
    const s = stat(Number(pidText));
    if (s && s.state !== 'Z') out.push({ pid: Number(pidText), ...s });
  }
  return out;
}

export async function waitFor<T>(fn: () => T | Promise<T>, timeoutMs: number, what: string): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs}ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
