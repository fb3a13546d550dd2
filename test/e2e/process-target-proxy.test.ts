/**
 * slow_agent and network_partition through the agents' TCP fault proxies:
 * the tiny fleet's front door reaches its workers only through them, so the
 * faults show in the workload while the agents themselves run untouched.
 */
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { Target } from '../../src/arena/providers.js';
import { UsageError } from '../../src/shared/errors.js';
import { createProcessTarget } from '../../src/targets/process/index.js';
import { FLEET_DIR, freePorts, processesMatching, tinyFleet, waitFor } from '../helpers/process-fleet.js';

let target: Target | undefined;
let tag = '';
let seq = 0;

afterEach(async () => {
  await target?.stop();
  target = undefined;
  expect(processesMatching(tag)).toEqual([]);
});

async function proxiedFleet() {
  tag = `px${process.pid}x${++seq}`;
  const via = await freePorts(2);
  const fleet = await tinyFleet({
    tag,
    n: 2,
    via,
    edit: (input) =>
      input.agents.forEach(
        (a, i) => (a.proxy = { listen: via[i]!, upstream: `127.0.0.1:${(a.pid as { port: number }).port}` }),
      ),
  });
  target = createProcessTarget(fleet.spec, { baseDir: FLEET_DIR });
  await target.start();
  return { ...fleet, via };
}

/** ms until a TCP connection to `port` is accepted and answered, or the error */
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
    s.setTimeout(3000, () => {
      resolve('timeout');
      s.destroy();
    });
  });
}

/** the fastest of three trips: a scheduler stall on a loaded machine must not read as added latency */
async function fastest(port: number): Promise<number> {
  const trips = [await roundTrip(port), await roundTrip(port), await roundTrip(port)];
  return Math.min(...trips.map((t) => (typeof t === 'number' ? t : Infinity)));
}

describe('process target: faults through the TCP proxy', { timeout: 45_000 }, () => {
  it('slow_agent delays traffic to the agent for its duration, and the front door feels it', async () => {
    const fleet = await proxiedFleet();
    const t = target!;
    const id = fleet.ids[0]!;
    expect(t.unsupportedFaults().slow_agent).toBeUndefined();
    expect(await fastest(fleet.via[0]!)).toBeLessThan(300);
    const before = await t.observer.workload();
    const report = await t.runtime.slowAgent(id, 400, { durationMs: 1500 });
    expect(report).toMatchObject({ fault_id: expect.any(String) });
    expect(await roundTrip(fleet.via[0]!)).toBeGreaterThanOrEqual(390);
    // the other agent's path is untouched
    expect(await fastest(fleet.via[1]!)).toBeLessThan(300);
    await waitFor(async () => (await t.runtime.activeFaults()).length === 0, 4000, 'slow_agent to end');
    const after = await t.observer.workload();
    // the front door gives a worker 300 ms: tasks sent to the slowed one failed
    expect(after.failed - before.failed).toBeGreaterThan(0);
    expect(await fastest(fleet.via[0]!)).toBeLessThan(300);
  });

  it('network_partition refuses new connections until its duration ends; the network aspect recovers after', async () => {
    const fleet = await proxiedFleet();
    const t = target!;
    const id = fleet.ids[1]!;
    await t.runtime.partitionNetwork(id, { durationMs: 700 });
    const started = performance.now();
    expect(await roundTrip(fleet.via[1]!)).toBe('ECONNREFUSED');
    expect((await t.observer.health({ kind: 'agent', id, aspect: 'network' })).problems).toContain(
      `${id}: network_partition is active`,
    );
    // the agent itself is fine: its own probe does not go through the proxy
    expect((await t.observer.health({ kind: 'agent', id, aspect: 'process' })).healthy).toBe(true);
    await waitFor(
      async () => (await t.observer.health({ kind: 'agent', id, aspect: 'network' })).healthy,
      5000,
      'network healthy',
    );
    expect(performance.now() - started).toBeGreaterThanOrEqual(650);
    expect(typeof (await roundTrip(fleet.via[1]!))).toBe('number');
  });

  it('a proxy port already in use is a usage error naming the port, and nothing is left running', async () => {
    tag = `px${process.pid}x${++seq}`;
    const blocker = net.createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const taken = (blocker.address() as net.AddressInfo).port;
    try {
      const fleet = await tinyFleet({
        tag,
        n: 1,
        edit: (i) => void (i.agents[0]!.proxy = { listen: taken, upstream: '127.0.0.1:1' }),
      });
      const t = createProcessTarget(fleet.spec, { baseDir: FLEET_DIR });
      const err = await t.start().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(UsageError);
      expect((err as Error).message).toContain(`port ${taken} on 127.0.0.1 is already in use`);
    } finally {
      await new Promise((r) => blocker.close(r));
    }
  });
});
