import { afterEach, describe, expect, it } from 'vitest';
import { startTcpProxy, type TcpProxy } from '../../../../src/proxies/tcp/proxy.js';
import { createRandom } from '../../../../src/shared/random.js';
import {
  closeAll,
  dial,
  dialEnding,
  dialOutcome,
  ending,
  readBytes,
  fastest,
  roundTrip,
  settlesWithin,
  startEcho,
} from '../../../helpers/tcp.js';

let proxy: TcpProxy | undefined;
afterEach(async () => {
  await proxy?.close();
  proxy = undefined;
  await closeAll();
});

async function proxyToEcho(seed = 1) {
  proxy = await startTcpProxy({
    listen: { port: 0 },
    upstream: { host: '127.0.0.1', port: await startEcho() },
    random: createRandom(seed),
  });
  return proxy;
}

describe('tcp proxy: blackhole', () => {
  it('holds open connections and refuses new ones; after the revert held bytes arrive and connections are accepted again', async () => {
    const p = await proxyToEcho();
    const open = await dial(p.port);
    await roundTrip(open);
    const { report, revert } = p.applyFault({ id: 'bh', type: 'blackhole', params: {} });
    expect(report).toMatchObject({ connections_affected: 1, new_connections: 'refused' });

    const echoed = readBytes(open, 4);
    open.write('held');
    expect(await settlesWithin(echoed, 250)).toBe(false);
    expect(await dialOutcome(p.port)).toBe('ECONNREFUSED');
    expect(p.stats().is_accepting).toBe(false);

    await revert!();
    // like a partition that heals before TCP gives up: what was sent arrives, in order
    expect((await echoed).toString()).toBe('held');
    expect(p.stats().is_accepting).toBe(true);
    const fresh = await dial(p.port);
    expect(await fastest(fresh)).toBeLessThan(100);
    expect(p.port).toBe(proxy!.port);
  });

  it('pushes back on a sender instead of buffering without bound', async () => {
    const p = await proxyToEcho();
    const open = await dial(p.port);
    p.applyFault({ id: 'bh', type: 'blackhole', params: {} });
    const chunk = Buffer.alloc(256 * 1024, 7);
    for (let i = 0; i < 64; i++) open.write(chunk); // 16 MiB
    await new Promise((r) => setTimeout(r, 200));
    // the proxy read at most its high-water mark plus what the kernel buffers hold, not all 16 MiB
    expect(p.stats().bytes_client_to_upstream).toBeLessThan(8 * 1024 * 1024);
  });

  it('at probability 0 never acts: connections flow and new ones are accepted', async () => {
    const p = await proxyToEcho();
    const open = await dial(p.port);
    const { report } = p.applyFault({ id: 'bh', type: 'blackhole', params: { probability: 0 } });
    expect(report).toMatchObject({ connections_affected: 0, new_connections: 'affected' });
    expect(await fastest(open)).toBeLessThan(100);
    expect(await fastest(await dial(p.port))).toBeLessThan(100);
  });
});

describe('tcp proxy: reset', () => {
  it('RSTs every open connection and each new one while active; after the revert connections work', async () => {
    const p = await proxyToEcho();
    const a = await dial(p.port);
    const b = await dial(p.port);
    await roundTrip(a);
    const endA = ending(a);
    const endB = ending(b);
    const { report, revert } = p.applyFault({ id: 'rst', type: 'reset', params: {} });
    expect(report).toMatchObject({ connections_affected: 2, new_connections: 'reset' });
    expect(await endA).toBe('ECONNRESET');
    expect(await endB).toBe('ECONNRESET');

    expect(await dialEnding(p.port)).toBe('ECONNRESET');
    expect(p.stats().connections_reset).toBe(3);

    await revert!();
    expect(await fastest(await dial(p.port))).toBeLessThan(100);
  });

  it('at probability 0 never acts', async () => {
    const p = await proxyToEcho();
    const a = await dial(p.port);
    p.applyFault({ id: 'rst', type: 'reset', params: { probability: 0 } });
    expect(await fastest(a)).toBeLessThan(100);
    expect(await fastest(await dial(p.port))).toBeLessThan(100);
    expect(p.stats().connections_reset).toBe(0);
  });

  it('with a probability picks connections from its seed: the same seed picks the same ones', async () => {
    const pattern = async (seed: number) => {
      const p = await proxyToEcho(seed);
      const clients = await Promise.all(Array.from({ length: 12 }, () => dial(p.port)));
      for (const c of clients) await roundTrip(c);
      const endings = clients.map((c) =>
        Promise.race([ending(c), new Promise<string>((r) => setTimeout(() => r('open'), 300))]),
      );
      p.applyFault({ id: 'rst', type: 'reset', params: { probability: 0.5 } });
      const result = await Promise.all(endings);
      await p.close();
      await closeAll();
      return result.map((r) => (r === 'ECONNRESET' ? 'R' : r === 'open' ? '.' : r)).join('');
    };
    const first = await pattern(42);
    expect(first).toMatch(/^[R.]{12}$/);
    expect(first).toContain('R');
    expect(first).toContain('.');
    expect(await pattern(42)).toBe(first);
  });
});

describe('tcp proxy: upstream failures', () => {
  it('an upstream that refuses reaches the client as a reset, not a clean end of stream', async () => {
    const gone = await startEcho();
    await closeAll(); // the port is free again: nothing listens there
    proxy = await startTcpProxy({ listen: { port: 0 }, upstream: { host: '127.0.0.1', port: gone } });
    expect(await dialEnding(proxy.port)).toBe('ECONNRESET');
    expect(proxy.stats().connections_open).toBe(0);
  });
});

describe('tcp proxy: a blackhole whose port is taken before the revert', () => {
  it('the DELETE says the revert failed (never reverted: true while nothing listens), and the proxy listens again once the port is free', async () => {
    const { startTcpFaultProxy } = await import('../../../../src/proxies/tcp/control.js');
    const { createServer } = await import('node:net');
    const fp = await startTcpFaultProxy({
      listen: { port: 0 },
      upstream: { host: '127.0.0.1', port: await startEcho() },
      control: { port: 0 },
    });
    try {
      const control = `http://127.0.0.1:${fp.control!.port}`;
      const post = await fetch(`${control}/v1/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ id: 'bh', type: 'blackhole', lease_ms: 60_000 }),
      });
      expect(post.status).toBe(201);
      expect(fp.proxy.stats().is_accepting).toBe(false);
      // someone else takes the port meanwhile
      const squatter = createServer();
      await new Promise<void>((resolve) => squatter.listen(fp.proxy.port, '127.0.0.1', resolve));
      const del = await fetch(`${control}/v1/faults/bh`, { method: 'DELETE' });
      const body = (await del.json()) as { code?: string; error?: string; reverted?: boolean };
      expect(del.status).toBe(503);
      expect(body.code).toBe('revert_failed');
      expect(body.error).toContain(`127.0.0.1:${fp.proxy.port} cannot be listened on again`);
      expect(fp.proxy.stats().is_accepting).toBe(false);
      // the port is freed: the proxy takes it back by itself (10x its retry interval as a safety net)
      await new Promise<void>((resolve) => squatter.close(() => resolve()));
      const deadline = Date.now() + 10_000;
      while (!fp.proxy.stats().is_accepting && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(fp.proxy.stats().is_accepting).toBe(true);
      expect(await fastest(await dial(fp.proxy.port))).toBeLessThan(5000);
    } finally {
      await fp.close();
    }
  }, 60_000);
});
