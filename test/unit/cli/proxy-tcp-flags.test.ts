import { describe, expect, it } from 'vitest';
import { startFaults } from '../../../src/cli/run/run-proxy-tcp.js';
import { parseHostPort } from '../../../src/proxies/tcp/endpoint.js';

const base = { listen: '0', upstream: '127.0.0.1:1' };

describe('arena proxy tcp flags', () => {
  it('turns start-fault flags into protocol fault requests', () => {
    expect(
      startFaults({
        ...base,
        fault: ['latency', 'reset'],
        latency: '100ms',
        jitter: '10ms',
        probability: '0.5',
        duration: '30s',
      }),
    ).toEqual([
      {
        id: 'start-latency',
        type: 'latency',
        params: { latency_ms: 100, jitter_ms: 10, probability: 0.5 },
        lease_ms: 86_400_000,
        duration_ms: 30_000,
      },
      { id: 'start-reset', type: 'reset', params: { probability: 0.5 }, lease_ms: 86_400_000, duration_ms: 30_000 },
    ]);
    expect(startFaults({ ...base, fault: ['bandwidth', 'timeout'], bandwidth: '65536', timeout: '2s' })).toEqual([
      { id: 'start-bandwidth', type: 'bandwidth', params: { bytes_per_s: 65536 }, lease_ms: 86_400_000 },
      { id: 'start-timeout', type: 'timeout', params: { timeout_ms: 2000 }, lease_ms: 86_400_000 },
    ]);
    expect(startFaults(base)).toEqual([]);
  });

  it.each([
    [{ fault: ['latncy'] }, '--fault: unknown fault "latncy"'],
    [{ fault: ['reset', 'reset'] }, '--fault reset is given twice'],
    [{ fault: ['latency'] }, '--fault latency needs --latency'],
    [{ jitter: '5ms' }, '--jitter needs --fault latency'],
    [{ bandwidth: '100' }, '--bandwidth needs --fault bandwidth'],
    [{ duration: '5s' }, '--duration needs a --fault'],
    [{ fault: ['reset'], probability: '1.2' }, '--probability must be a number from 0 to 1'],
    [{ fault: ['bandwidth'], bandwidth: '0' }, '--fault bandwidth: --bandwidth: expected a whole number'],
    [{ fault: ['latency'], latency: '2h' }, '--fault latency: --latency: expected whole milliseconds'],
    [{ fault: ['reset'], duration: '25h' }, '--duration: duration "25h" is longer than the 24h limit'],
  ])('%j is refused: %s', (flags, message) => {
    expect(() => startFaults({ ...base, ...flags })).toThrow(
      expect.objectContaining({ exitCode: 2, message: expect.stringContaining(message) }),
    );
  });

  it('reads HOST:PORT, IPv6 in brackets, and refuses anything else naming the flag', () => {
    expect(parseHostPort('127.0.0.1:7101')).toEqual({ host: '127.0.0.1', port: 7101 });
    expect(parseHostPort('db.local:5432')).toEqual({ host: 'db.local', port: 5432 });
    expect(parseHostPort('[::1]:80')).toEqual({ host: '::1', port: 80 });
    for (const bad of ['localhost', ':80', '127.0.0.1:0', '127.0.0.1:65536', '::1:80', 'a b:1']) {
      expect(() => parseHostPort(bad, '--upstream')).toThrow(/^--upstream: expected HOST:PORT/);
    }
  });
});
