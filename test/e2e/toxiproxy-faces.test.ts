/**
 * One proxy, two faces: a proxy made through `arena toxiproxy`'s Toxiproxy API (with the official
 * toxiproxy-node-client) is also the TCP proxy of a process target's agent (`proxy: { toxiproxy, name }`).
 * A scenario's slow_agent acts on that very proxy, on top of the client's own toxic, and leaves the
 * toxic in place when it ends. Measured on real connections through the proxy.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Toxiproxy } from 'toxiproxy-node-client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { arena, ARENA_BIN } from '../helpers/cli.js';
import { startListening, type Listening } from '../helpers/listening.js';
import { FLEET_DIR, freePorts, processesMatching, waitFor } from '../helpers/process-fleet.js';

let dir = '';
let server: Listening | undefined;
let fleet: { stop(): Promise<void> } | undefined;
const tag = `faces${process.pid}`;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'arena-faces-'));
});

afterEach(async () => {
  await fleet?.stop();
  fleet = undefined;
  await server?.stop();
  server = undefined;
  rmSync(dir, { recursive: true, force: true });
  expect(processesMatching(tag)).toEqual([]);
});

async function startToxiproxy(args: string[] = []): Promise<{ url: string; client: Toxiproxy }> {
  server = await startListening('node', [ARENA_BIN, 'toxiproxy', '--port', '0', '--seed', '3', ...args], {
    pattern: /listening on (http:\/\/127\.0\.0\.1:\d+)/,
  });
  return { url: server.url, client: new Toxiproxy(server.url) };
}

const supervisorArgs = (front: number, port: number) => [
  join(FLEET_DIR, 'supervisor.mjs'),
  String(front),
  '200',
  `${tag}-1=${port}`,
];

/**
 * A one-worker fleet whose worker listens on `port`, the agent's proxy the named Toxiproxy proxy;
 * started by the arena (`managed`) or already running (then it outlives the run, as the proxy does).
 */
function targetFile(
  url: string,
  proxyName: string,
  front: number,
  port: number,
  managed: boolean,
  keyEnv?: string,
): string {
  const file = join(dir, 'target.yaml');
  const start = `start:
  command: ${JSON.stringify(`touch ${join(dir, 'started')}; exec node ${supervisorArgs(front, port).join(' ')}`)}
  ready: { http: "http://127.0.0.1:${front}/healthz", timeout: 10s }
  grace: 1s
`;
  writeFileSync(
    file,
    `kind: process
name: faces
${managed ? start : ''}agents:
  - id: ${tag}-1
    pid: { port: ${port} }
    health: { http: "http://127.0.0.1:${port}/", interval: 50ms, timeout: 300ms }
    proxy: { toxiproxy: "${url}", name: ${JSON.stringify(proxyName)}${keyEnv ? `, api_key_env: ${keyEnv}` : ''} }
`,
  );
  return file;
}

function scenario(body: string): string {
  const file = join(dir, 'scenario.yaml');
  writeFileSync(file, `name: faces\nconfig: { warmup: 300ms, cooldown: 500ms, timeout: 40s }\nactions:\n${body}`);
  return file;
}

/** ms until an HTTP request on a new connection to `port` is answered, or the error */
function roundTrip(port: number): Promise<number | string> {
  const started = performance.now();
  return new Promise((resolve) => {
    const s = net.connect({ host: '127.0.0.1', port }, () =>
      s.write('GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'),
    );
    s.once('data', () => {
      resolve(performance.now() - started);
      s.destroy();
    });
    s.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
    s.setTimeout(10_000, () => {
      resolve('timeout');
      s.destroy();
    });
  });
}

/** the fastest of three: a scheduler stall on a busy machine must not read as added latency */
async function fastest(port: number): Promise<number> {
  const trips = [await roundTrip(port), await roundTrip(port), await roundTrip(port)];
  return Math.min(...trips.map((t) => (typeof t === 'number' ? t : Infinity)));
}

async function waitForAnswer(port: number): Promise<boolean> {
  for (let i = 0; i < 200; i++) {
    if (typeof (await roundTrip(port)) === 'number') return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}

const portOf = (listen: string) => Number(listen.slice(listen.lastIndexOf(':') + 1));

describe('arena toxiproxy: one proxy, two faces (e2e)', { timeout: 90_000 }, () => {
  it("a scenario's slow_agent adds its delay on the Toxiproxy proxy the agent names, on top of the client's toxic, which stays after the run", async () => {
    const { url, client } = await startToxiproxy();
    const [front, port] = await freePorts(2);
    const proxy = await client.createProxy({ name: 'worker', listen: '127.0.0.1:0', upstream: `127.0.0.1:${port}` });
    const via = portOf(proxy.listen);
    // its own session, as a fleet someone else runs is: the arena signals no supervisor of its own
    const child = spawn(process.execPath, supervisorArgs(front!, port!), { stdio: 'ignore', detached: true });
    const gone = new Promise<void>((r) => child.once('exit', () => r()));
    fleet = { stop: async () => void (child.kill('SIGTERM'), await gone) };
    expect(await waitForAnswer(port!)).toBe(true);
    // the client's own fault: 100 ms on every answer
    await proxy.addToxic({
      name: 'latency_downstream',
      type: 'latency',
      stream: 'downstream',
      toxicity: 1,
      attributes: { latency: 100, jitter: 0 },
    });

    const run = arena(
      [
        'scenario',
        'run',
        scenario(
          `  - action: { type: slow_agent, target_id: ${tag}-1, metadata: { duration: 4s, delay: 500ms } }\n    expect_success: true\n`,
        ),
        '--target',
        targetFile(url, 'worker', front!, port!, false),
        '--json',
      ],
      { timeout: 80_000 },
    );
    // trips through the proxy while the run goes on: the slowest is taken during the fault
    const trips: number[] = [];
    let done = false;
    void run.finally(() => (done = true));
    while (!done) {
      const trip = await roundTrip(via);
      if (typeof trip === 'number') trips.push(trip);
      else await new Promise((r) => setTimeout(r, 100));
    }
    const result = await run;
    expect(result.exitCode, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout).scenarios[0];
    expect(report.results[0].result).toMatchObject({
      success: true,
      metadata: { type: 'latency', params: { latency_ms: 500 }, toxiproxy: url, proxy_name: 'worker' },
    });

    // both faces at once: 500 ms each way from the arena, 100 ms on the answer from the toxic
    expect(Math.max(...trips)).toBeGreaterThanOrEqual(1090);
    // the arena's fault is gone, the client's toxic is not
    const after = await fastest(via);
    expect(after).toBeGreaterThanOrEqual(95);
    expect(after).toBeLessThan(1000);
    expect(await (await fetch(`${url}/proxies/worker/toxics`)).json()).toEqual([
      {
        name: 'latency_downstream',
        type: 'latency',
        stream: 'downstream',
        toxicity: 1,
        attributes: { latency: 100, jitter: 0 },
      },
    ]);
    const faults = (await (await fetch(`${url}/arena/proxies/worker/v1/faults`)).json()) as { faults: unknown[] };
    expect(faults.faults).toEqual([]);
  });

  it("an arena SIGKILLed during slow_agent leaves no fault on a keyed Toxiproxy server's proxy, and the client's toxic in place", async () => {
    const key = 'faces-key-0123456789abcdef';
    const { url } = await startToxiproxy(['--api-key', key]);
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${url}${path}`, {
        method,
        headers: { 'x-api-key': key },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return res.json() as Promise<Record<string, unknown> & { faults?: unknown[] }>;
    };
    const [front, port] = await freePorts(2);
    const proxy = await call('POST', '/proxies', {
      name: 'worker',
      listen: '127.0.0.1:0',
      upstream: `127.0.0.1:${port}`,
    });
    const via = portOf(proxy.listen as string);
    const child = spawn(process.execPath, supervisorArgs(front!, port!), { stdio: 'ignore', detached: true });
    const gone = new Promise<void>((r) => child.once('exit', () => r()));
    fleet = { stop: async () => void (child.kill('SIGTERM'), await gone) };
    expect(await waitForAnswer(port!)).toBe(true);
    await call('POST', '/proxies/worker/toxics', { type: 'bandwidth', stream: 'upstream', attributes: { rate: 1000 } });
    const run = arena(
      [
        'scenario',
        'run',
        scenario(`  - action: { type: slow_agent, target_id: ${tag}-1, metadata: { duration: 5m, delay: 400ms } }\n`),
        '--target',
        targetFile(url, 'worker', front!, port!, false, 'FACES_KEY'),
      ],
      { env: { FACES_KEY: key } },
    );
    const listed = async () => (await call('GET', '/arena/proxies/worker/v1/faults')).faults ?? [];
    await waitFor(async () => (await listed()).length === 1, 30_000, 'the arena to apply slow_agent');
    expect(await roundTrip(via)).toBeGreaterThanOrEqual(790);
    run.kill('SIGKILL');
    await run;
    // the watchdog's DELETE, carrying the key (or, failing it, the lease) ends the fault with no arena left
    await waitFor(async () => (await listed()).length === 0, 15_000, 'the fault to be reverted');
    expect(await fastest(via)).toBeLessThan(790);
    expect(await call('GET', '/proxies/worker/toxics')).toMatchObject([{ name: 'bandwidth_upstream' }]);
  });

  it('an agent naming a proxy the Toxiproxy server does not have is exit 2 naming it, before the fleet is started', async () => {
    const { url, client } = await startToxiproxy();
    const [front, port] = await freePorts(2);
    await client.createProxy({ name: 'worker', listen: '127.0.0.1:0', upstream: `127.0.0.1:${port}` });
    const result = await arena([
      'scenario',
      'run',
      scenario(`  - action: { type: slow_agent, target_id: ${tag}-1, metadata: { duration: 1s, delay: 50ms } }\n`),
      '--target',
      targetFile(url, 'wroker', front!, port!, true),
    ]);
    expect(result.exitCode, result.stderr).toBe(2);
    expect(result.stderr).toContain(`toxiproxy server ${url} has no proxy named "wroker"`);
    expect(existsSync(join(dir, 'started'))).toBe(false);
    // a server that is not there is a runtime failure (exit 3) naming where the target looked
    const unreachable = await arena([
      'scenario',
      'run',
      scenario(`  - action: { type: slow_agent, target_id: ${tag}-1, metadata: { duration: 1s, delay: 50ms } }\n`),
      '--target',
      targetFile('http://127.0.0.1:1', 'worker', front!, port!, true),
    ]);
    expect(unreachable.exitCode, unreachable.stderr).toBe(3);
    expect(unreachable.stderr).toContain(`agents.${tag}-1.proxy: toxiproxy server http://127.0.0.1:1 is unreachable`);
    expect(existsSync(join(dir, 'started'))).toBe(false);
    // nothing was done to the proxy that does exist
    const faults = (await (await fetch(`${url}/arena/proxies/worker/v1/faults`)).json()) as { faults: unknown[] };
    expect(faults.faults).toEqual([]);
  });
});
