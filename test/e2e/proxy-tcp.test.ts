import { execa, type ResultPromise } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { ARENA_BIN, REPO_ROOT, arena } from '../helpers/cli.js';
import { closeAll, dial, dialOutcome, fastest, roundTrip, startEcho } from '../helpers/tcp.js';

let child: ResultPromise | undefined;
afterEach(async () => {
  if (child && child.exitCode === null) {
    child.kill('SIGKILL');
    await child.catch(() => undefined);
  }
  child = undefined;
  await closeAll();
});

/** starts `arena proxy tcp` and waits for its one line saying where it listens */
async function startProxy(args: string[]) {
  child = execa('node', [ARENA_BIN, 'proxy', 'tcp', ...args], {
    reject: false,
    cwd: REPO_ROOT,
    extendEnv: false,
    env: { PATH: process.env.PATH ?? '', NO_COLOR: '1', CI: '1' },
  });
  let stderr = '';
  const line = await new Promise<string>((resolve, reject) => {
    child!.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const found = /^arena: tcp proxy listening on .*$/m.exec(stderr);
      if (found) resolve(found[0]);
    });
    void child!.then((r) => reject(new Error(`proxy exited ${r.exitCode}: ${stderr}`)));
  });
  const port = Number(/listening on 127\.0\.0\.1:(\d+)/.exec(line)![1]);
  const control = /control (http:\/\/127\.0\.0\.1:\d+)/.exec(line)?.[1];
  return { line, port, control, stderr: () => stderr };
}

describe('arena proxy tcp (e2e)', () => {
  it('proxies with a start fault, takes faults on its control port, and reverts and exits 0 on SIGTERM', async () => {
    const echo = await startEcho();
    const proxy = await startProxy([
      '--listen',
      '0',
      '--upstream',
      `127.0.0.1:${echo}`,
      '--control',
      '0',
      '--fault',
      'latency',
      '--latency',
      '60ms',
      '--seed',
      '1',
    ]);
    expect(proxy.line).toContain(`→ 127.0.0.1:${echo}`);
    expect(proxy.line).toContain('faults: latency 60ms');

    const client = await dial(proxy.port);
    expect(await roundTrip(client)).toBeGreaterThanOrEqual(118);
    const deleted = await fetch(`${proxy.control}/v1/faults/start-latency`, { method: 'DELETE' });
    expect(await deleted.json()).toEqual({ id: 'start-latency', reverted: true });
    expect(await fastest(client)).toBeLessThan(60);

    const posted = await fetch(`${proxy.control}/v1/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: 'part', type: 'blackhole', lease_ms: 60_000 }),
    });
    expect(posted.status).toBe(201);
    expect(await dialOutcome(proxy.port)).toBe('ECONNREFUSED');
    const stats = (await (await fetch(`${proxy.control}/v1/stats`)).json()) as Record<string, unknown>;
    expect(stats).toMatchObject({
      connections_total: 1,
      connections_open: 1,
      bytes_client_to_upstream: 16,
      bytes_upstream_to_client: 16,
      faults_injected: 2,
      faults_active: 1,
      is_accepting: false,
    });

    child!.kill('SIGTERM');
    const result = await child!;
    expect(result.exitCode).toBe(0);
    expect(proxy.stderr()).toContain('tcp proxy stopped, 1 fault reverted');
  });

  it('a port in use is exit 2 naming the flag and the port; nothing keeps running', async () => {
    const taken = await startEcho();
    const result = await arena(['proxy', 'tcp', '--listen', String(taken), '--upstream', '127.0.0.1:1'], {
      timeout: 15_000,
    });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(`--listen: port ${taken} on 127.0.0.1 is already in use`);
  });

  it('bad flag values are exit 2 with a message naming the flag', async () => {
    const bad = await arena(
      ['proxy', 'tcp', '--listen', '0', '--upstream', 'localhost', '--fault', 'bandwidth', '--bandwidth', 'fast'],
      { timeout: 15_000 },
    );
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toMatch(/--upstream: expected HOST:PORT/);
    const fault = await arena(['proxy', 'tcp', '--listen', '0', '--upstream', '127.0.0.1:1', '--fault', 'partition'], {
      timeout: 15_000,
    });
    expect(fault.exitCode).toBe(2);
    expect(fault.stderr).toContain(
      '--fault: unknown fault "partition" (the TCP proxy takes latency, blackhole, reset, bandwidth, timeout)',
    );
  });
});
