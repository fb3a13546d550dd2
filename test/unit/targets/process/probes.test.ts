import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ProbeMonitor, probeOnce } from '../../../../src/targets/process/probes.js';
import { createWorkload } from '../../../../src/targets/process/workload.js';
import { waitFor } from '../wait.js';

let server: http.Server | undefined;
let monitor: ProbeMonitor | undefined;

afterEach(async () => {
  monitor?.stop();
  monitor = undefined;
  await new Promise((r) => (server ? server.close(r) : r(undefined)));
  server = undefined;
});

/** a server whose answers the test holds back until it says so */
async function gatedServer() {
  const held: Array<() => void> = [];
  let status = 200;
  server = http.createServer((_req, res) => {
    held.push(() => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ok: status === 200 }));
    });
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/healthz`,
    setStatus: (s: number) => (status = s),
    release: async (n = 1) => {
      for (let i = 0; i < n; i++) {
        while (held.length === 0) await new Promise((r) => setTimeout(r, 2));
        held.shift()!();
      }
    },
  };
}

describe('probes', () => {
  it('http, tcp and command probes pass and fail with a reason', async () => {
    const s = await gatedServer();
    const pending = probeOnce({ http: s.url }, 1000, { cwd: '/' });
    await s.release();
    expect(await pending).toEqual({ ok: true });
    const port = (server!.address() as AddressInfo).port;
    expect(await probeOnce({ tcp: `127.0.0.1:${port}` }, 1000, { cwd: '/' })).toEqual({ ok: true });
    await new Promise((r) => server!.close(r));
    server = undefined;
    expect(await probeOnce({ tcp: `127.0.0.1:${port}` }, 1000, { cwd: '/' })).toEqual({
      ok: false,
      problem: `tcp 127.0.0.1:${port}: connection refused`,
    });
    expect(await probeOnce({ command: 'exit 0' }, 1000, { cwd: '/' })).toEqual({ ok: true });
    expect(await probeOnce({ command: 'echo broken >&2; exit 1' }, 1000, { cwd: '/' })).toEqual({
      ok: false,
      problem: 'probe command exited with code 1: broken',
    });
    expect(await probeOnce({ command: 'sleep 5' }, 100, { cwd: '/' })).toEqual({
      ok: false,
      problem: 'probe command did not finish within 100ms',
    });
  });

  it('healthy after N consecutive passes; a failure starts over; reset() discards a probe already in flight', async () => {
    const s = await gatedServer();
    monitor = new ProbeMonitor({ http: s.url, interval: 1, passes: 2 }, { cwd: '/' });
    monitor.start();
    await s.release();
    await monitor.nextResult();
    expect(monitor.state()).toMatchObject({ consecutive: 1, healthy: false });
    await s.release();
    await monitor.nextResult();
    expect(monitor.state()).toMatchObject({ consecutive: 2, healthy: true });
    s.setStatus(503);
    await s.release();
    await monitor.nextResult();
    expect(monitor.state()).toMatchObject({ consecutive: 0, healthy: false, lastProblem: `${s.url}: status 503` });
    s.setStatus(200);
    // the next probe is in flight now: a fault lands, its pass must not count
    await new Promise((r) => setTimeout(r, 20));
    monitor.reset();
    await s.release();
    await s.release();
    await monitor.nextResult();
    expect(monitor.state().consecutive).toBe(1);
    expect(monitor.counters()).toMatchObject({ failed: 1 });
  });

  it('the workload counts every request once, by its expectation', async () => {
    let n = 0;
    server = http.createServer((_req, res) => {
      n++;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ok: n % 2 === 0 }));
    });
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/task`;
    const w = createWorkload({
      rate: 200,
      request: { method: 'POST', url, timeout: 1000, json: { q: 1 } },
      expect: { json: { path: '$.ok', equals: true } },
    });
    w.start();
    // until enough requests have been answered, not a fixed 150 ms: a loaded machine sent only 4 in that time
    await waitFor(() => n > 5, 'six requests');
    await w.stop();
    const c = w.counters();
    expect(c.requests).toBe(n);
    expect(c.requests).toBeGreaterThan(5);
    expect(c.succeeded + c.failed).toBe(c.requests);
    expect(Math.abs(c.succeeded - c.failed)).toBeLessThanOrEqual(1);
    expect(w.recentFailures()[0]).toBe('$.ok is false, expected true');
  });
});
