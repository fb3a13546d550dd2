import { afterEach, describe, expect, it } from 'vitest';
import { parseTcpFault } from '../../../../src/proxies/tcp/fault-spec.js';
import { startTcpProxy, type TcpProxy } from '../../../../src/proxies/tcp/proxy.js';
import { ProtocolError } from '../../../../src/protocol/wire.js';
import { closeAll, dial, fastest, startEcho } from '../../../helpers/tcp.js';

function refusal(type: string, params: Record<string, unknown>): { status: number; code: string; message: string } {
  try {
    parseTcpFault({ type, params });
  } catch (err) {
    if (err instanceof ProtocolError) return { status: err.status, code: err.code, message: err.message };
    throw err;
  }
  throw new Error('accepted');
}

describe('tcp fault params', () => {
  it('reads each type with its params as DESIGN §10.1 names them', () => {
    expect(parseTcpFault({ type: 'latency', params: { latency_ms: 100, jitter_ms: 10 } })).toEqual({
      type: 'latency',
      latency_ms: 100,
      jitter_ms: 10,
    });
    expect(parseTcpFault({ type: 'latency', params: { latency_ms: 5 } })).toEqual({
      type: 'latency',
      latency_ms: 5,
      jitter_ms: 0,
    });
    expect(parseTcpFault({ type: 'blackhole', params: {} })).toEqual({ type: 'blackhole' });
    expect(parseTcpFault({ type: 'reset', params: { probability: 0.25 } })).toEqual({
      type: 'reset',
      probability: 0.25,
    });
    expect(parseTcpFault({ type: 'bandwidth', params: { bytes_per_s: 1000 } })).toEqual({
      type: 'bandwidth',
      bytes_per_s: 1000,
    });
    expect(parseTcpFault({ type: 'timeout', params: { timeout_ms: 0 } })).toEqual({ type: 'timeout', timeout_ms: 0 });
  });

  it('an unknown type is a 422 listing the types the proxy takes', () => {
    expect(refusal('slow_agent', {})).toEqual({
      status: 422,
      code: 'unsupported',
      message: 'type: the TCP proxy has no fault "slow_agent" (it takes latency, blackhole, reset, bandwidth, timeout)',
    });
  });

  it.each([
    ['latency', {}, 'params.latency_ms: required'],
    ['latency', { latency_ms: -1 }, 'params.latency_ms'],
    ['latency', { latency_ms: 1.5 }, 'params.latency_ms'],
    ['latency', { latency_ms: '100ms' }, 'params.latency_ms'],
    ['latency', { latency_ms: 10, jitter_ms: 3_600_001 }, 'params.jitter_ms'],
    [
      'latency',
      { latency_ms: 10, delay_ms: 5 },
      'params.delay_ms: unknown for latency (expected latency_ms, jitter_ms, probability)',
    ],
    ['bandwidth', { bytes_per_s: 0 }, 'params.bytes_per_s'],
    ['bandwidth', {}, 'params.bytes_per_s'],
    ['timeout', {}, 'params.timeout_ms: required'],
    ['reset', { probability: 1.5 }, 'params.probability: expected a number from 0 to 1'],
    ['blackhole', { probability: 'half' }, 'params.probability'],
    ['blackhole', { latency_ms: 3 }, 'params.latency_ms: unknown for blackhole'],
  ])('%s with %j is a 400 naming %s', (type, params, field) => {
    const r = refusal(type, params);
    expect(r.status).toBe(400);
    expect(r.code).toBe('bad_request');
    expect(r.message.startsWith(field)).toBe(true);
  });
});

describe('tcp proxy: refused faults change nothing', () => {
  let proxy: TcpProxy | undefined;
  afterEach(async () => {
    await proxy?.close();
    await closeAll();
  });

  it('bad params, unknown types and an id already active are refused; traffic and stats are untouched', async () => {
    proxy = await startTcpProxy({ listen: { port: 0 }, upstream: { host: '127.0.0.1', port: await startEcho() } });
    const client = await dial(proxy.port);
    expect(() => proxy!.applyFault({ id: 'x', type: 'latency', params: { latency_ms: -5 } })).toThrow(
      /params.latency_ms/,
    );
    expect(() => proxy!.applyFault({ id: 'x', type: 'partition', params: {} })).toThrow(/no fault "partition"/);
    proxy.applyFault({ id: 'y', type: 'latency', params: { latency_ms: 0 } });
    expect(() => proxy!.applyFault({ id: 'y', type: 'blackhole', params: {} })).toThrow(
      expect.objectContaining({ status: 409 }),
    );
    expect(proxy.stats()).toMatchObject({ faults_injected: 1, faults_active: 1, is_accepting: true });
    expect(await fastest(client)).toBeLessThan(100);
  });
});
