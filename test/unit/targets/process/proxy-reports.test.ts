/**
 * The proxies a process target lists in its reports and in describe: each
 * running proxy once, a shared one with every agent behind it, stats only
 * where asked for.
 */
import { describe, expect, it } from 'vitest';
import { proxyReports, type RunningProxy } from '../../../../src/targets/process/proxies.js';

const proxy = (listen: string, upstream: string, requests: number): RunningProxy => ({
  port: 0,
  listen,
  upstream,
  stats: () => ({ requests }),
  applyFault: async () => ({ report: {} }),
  close: async () => {},
});

describe('proxyReports', () => {
  it('lists each proxy once: per-agent ones under their agent, a shared one under every agent behind it', () => {
    const shared = proxy('http://127.0.0.1:7300', 'https://api.openai.com', 5);
    const own = proxy('http://127.0.0.1:7301', 'http://127.0.0.1:9000', 2);
    const tcp = proxy('127.0.0.1:7001', '127.0.0.1:7101', 1);
    const running = {
      tcp: new Map([['a', tcp]]),
      llm: {
        byAgent: new Map([
          ['a', shared],
          ['b', own],
          ['c', shared],
        ]),
      },
      mcp: undefined,
    };
    expect(proxyReports(running, true)).toEqual([
      { kind: 'tcp', agents: ['a'], listen: '127.0.0.1:7001', upstream: '127.0.0.1:7101', stats: { requests: 1 } },
      {
        kind: 'llm',
        agents: ['a', 'c'],
        listen: 'http://127.0.0.1:7300',
        upstream: 'https://api.openai.com',
        stats: { requests: 5 },
      },
      {
        kind: 'llm',
        agents: ['b'],
        listen: 'http://127.0.0.1:7301',
        upstream: 'http://127.0.0.1:9000',
        stats: { requests: 2 },
      },
    ]);
    expect(proxyReports(running, false).every((p) => p.stats === undefined)).toBe(true);
  });

  it('a target with no proxies (or not started) lists none', () => {
    expect(proxyReports({ tcp: new Map() }, true)).toEqual([]);
  });
});
