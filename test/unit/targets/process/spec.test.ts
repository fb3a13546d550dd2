import { describe, expect, it } from 'vitest';
import { processTargetSchema } from '../../../../src/targets/process/spec.js';

const agent = { id: 'w1', pid: { port: 7101 }, health: { http: 'http://127.0.0.1:7101/healthz' } };
const base = { kind: 'process', name: 'fleet', agents: [agent] };

function issues(input: unknown) {
  const r = processTargetSchema.safeParse(input);
  expect(r.success).toBe(false);
  return r.error!.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
}

describe('processTargetSchema', () => {
  it('accepts the DESIGN §9.1 example and fills the defaults', () => {
    const spec = processTargetSchema.parse({
      ...base,
      start: {
        command: 'npx pm2-runtime fleet.config.cjs',
        cwd: '.',
        env: { LOG_LEVEL: 'warn' },
        ready: { http: 'http://127.0.0.1:7000/healthz', timeout: '20s' },
      },
      agents: [{ ...agent, role: 'worker', proxy: { listen: 7001, upstream: '127.0.0.1:7101' } }],
      leader: { http: 'http://127.0.0.1:7000/leader', json: 'leader_id' },
      hooks: { memory_corrupt: 'node scripts/corrupt.js {agent}' },
      workload: {
        rate: '20/s',
        request: { method: 'POST', url: 'http://127.0.0.1:7000/task', json: { q: 'ping' }, timeout: '2s' },
        expect: { status: 200, json: { path: '$.ok', equals: true } },
      },
      invariants: [
        {
          name: 'no-lost-jobs',
          request: { url: 'http://127.0.0.1:7000/audit' },
          expect: { status: 200, json: { path: '$.lost', equals: 0 } },
        },
      ],
    });
    expect(spec.start!.ready!.timeout).toBe(20_000);
    expect(spec.workload!.rate).toBe(20);
    expect(spec.workload!.request.timeout).toBe(2000);
    expect(spec.invariants![0]!.request).toMatchObject({ method: 'GET', timeout: 2000 });
    expect(spec.agents[0]!.role).toBe('worker');
  });

  it('llm: api defaults to openai; probe fixes the recovery probe path, model and body, each checked', () => {
    const probe = { path: '/v1/responses', model: 'gpt-4.1-nano', body: { input: 'hi', max_output_tokens: 16 } };
    const spec = processTargetSchema.parse({
      ...base,
      llm: { listen: 7300, upstream: 'http://127.0.0.1:9000', probe },
    });
    expect(spec.llm).toEqual({ listen: 7300, upstream: 'http://127.0.0.1:9000', api: 'openai', probe });
    const llm = { listen: 7300, upstream: 'http://127.0.0.1:9000' };
    expect(issues({ ...base, agents: [{ ...agent, llm: { ...llm, probe: { model: ' ' } } }] })).toEqual([
      'agents.0.llm.probe.model: Too small: expected string to have >=1 characters',
    ]);
    expect(issues({ ...base, llm: { ...llm, probe: { path: 'v1/responses' } } })).toEqual([
      'llm.probe.path: expected a path starting with /, like /v1/responses',
    ]);
    expect(issues({ ...base, llm: { ...llm, probe: { body: [] } } })[0]).toMatch(/^llm\.probe\.body: /);
    expect(issues({ ...base, llm: { ...llm, probe_model: 'x' } })[0]).toMatch(/probe_model/);
  });

  it('takes durations with units or as integer ms, and rates per second or minute', () => {
    const spec = processTargetSchema.parse({
      ...base,
      agents: [{ ...agent, health: { tcp: '127.0.0.1:7101', interval: 250, timeout: '1m30s', passes: 3 } }],
      workload: { rate: '30/m', request: { url: 'http://h/x' } },
    });
    expect(spec.agents[0]!.health).toEqual({ tcp: '127.0.0.1:7101', interval: 250, timeout: 90_000, passes: 3 });
    expect(spec.workload!.rate).toBe(0.5);
  });

  it('reports every problem with its path: unknown keys, two pid sources, bad durations, bad rate', () => {
    const found = issues({
      ...base,
      extra: 1,
      agents: [{ ...agent, pid: { port: 1, file: 'x' } }],
      workload: { rate: '0/s', request: { url: 'ftp://x', timeout: '25h' } },
    });
    expect(found).toEqual(
      expect.arrayContaining([
        ': Unrecognized key: "extra"',
        'agents.0.pid: expected exactly one of file, port, match, got file and port',
        'workload.rate: invalid rate "0/s": expected e.g. "20/s" or "300/m", above 0 and at most 1000/s',
        'workload.request.url: expected an http:// or https:// URL',
        'workload.request.timeout: duration "25h" is longer than the 24h limit',
      ]),
    );
  });

  it('refuses malformed and negative durations, an empty probe, and a json test with two checks', () => {
    expect(issues({ ...base, agents: [{ ...agent, health: { http: 'http://h/', timeout: '-1s' } }] })).toEqual([
      'agents.0.health.timeout: invalid duration "-1s": must not be negative; use a number of milliseconds or a string such as "250ms", "2s", "1m30s"',
    ]);
    expect(issues({ ...base, agents: [{ ...agent, health: { interval: '1s' } }] })).toEqual([
      'agents.0.health: expected exactly one of http, tcp, command',
    ]);
    expect(issues({ ...base, leader: { http: 'http://h/leader' } })).toEqual([
      'leader.json: leader.http needs json: the path of the leader id in its answer, e.g. "$.leader_id"',
    ]);
    expect(issues({ ...base, workload: { rate: 1, request: { url: 'http://h/', timeout: '2 parsecs' } } })).toEqual([
      expect.stringMatching(
        /^workload\.request\.timeout: invalid duration "2 parsecs": .*use a number of milliseconds/,
      ),
    ]);
    expect(
      issues({
        ...base,
        workload: {
          rate: 1,
          request: { url: 'http://h/' },
          expect: { json: { path: '$.a', equals: 1, exists: true } },
        },
      }),
    ).toEqual(['workload.expect.json: expected exactly one of equals, in, exists, range']);
  });

  it('refuses duplicate agent ids and two proxies on one port', () => {
    expect(
      issues({
        ...base,
        agents: [
          { ...agent, proxy: { listen: 7001, upstream: '127.0.0.1:7101' } },
          { ...agent, proxy: { listen: 7001, upstream: '127.0.0.1:7102' } },
        ],
      }),
    ).toEqual([
      'agents.1.id: duplicate agent id w1 (first at agents[0])',
      'agents.1.proxy.listen: port 7001 is already the listen port of agents.0.proxy.listen',
    ]);
  });

  it('an agent names a proxy of an arena toxiproxy server by url and name, one shape or the other, never both', () => {
    const spec = processTargetSchema.parse({
      ...base,
      agents: [{ ...agent, proxy: { toxiproxy: 'http://127.0.0.1:8474', name: 'redis' } }],
    });
    expect(spec.agents[0]!.proxy).toEqual({ toxiproxy: 'http://127.0.0.1:8474', name: 'redis' });
    const withProxy = (proxy: unknown) => issues({ ...base, agents: [{ ...agent, proxy }] });
    expect(withProxy({ toxiproxy: 'http://127.0.0.1:8474' })).toEqual(['agents.0.proxy.name: required with toxiproxy']);
    expect(withProxy({ listen: 7001 })).toEqual(['agents.0.proxy.upstream: required with listen']);
    expect(withProxy({ toxiproxy: 'http://127.0.0.1:8474', name: 'redis', upstream: '127.0.0.1:1' })).toEqual([
      'agents.0.proxy.upstream: not allowed with toxiproxy',
    ]);
    expect(withProxy({ listen: 7001, upstream: '127.0.0.1:1', toxiproxy: 'http://h:1', name: 'x' })).toEqual([
      'agents.0.proxy: expected exactly one of listen, toxiproxy, got listen and toxiproxy',
    ]);
    expect(withProxy({ listen: 7001, upstream: '127.0.0.1:1', api_key_env: 'K' })).toEqual([
      'agents.0.proxy.api_key_env: not allowed with listen',
    ]);
    expect(withProxy({ toxiproxy: 'http://h:1', name: 'x', api_key_env: 'not a name' })[0]).toMatch(
      /^agents\.0\.proxy\.api_key_env: expected an environment variable name/,
    );
    const named = { toxiproxy: 'http://127.0.0.1:8474', name: 'redis' };
    expect(
      issues({
        ...base,
        agents: [
          { ...agent, proxy: named },
          { ...agent, id: 'w2', proxy: { ...named, toxiproxy: 'http://127.0.0.1:8474/' } },
        ],
      }),
    ).toEqual([
      'agents.1.proxy.name: proxy "redis" on http://127.0.0.1:8474/ is already the proxy of agents[0] (one agent per proxy, so a fault acts on the agent it names)',
    ]);
    expect(withProxy({ toxiproxy: 'ftp://h', name: 'x' })[0]).toMatch(/^agents\.0\.proxy\.toxiproxy: /);
  });

  it('a process target needs agents, and kind must be process', () => {
    expect(issues({ ...base, agents: [] })).toEqual(['agents: a process target needs at least one agent']);
    expect(issues({ ...base, kind: 'remote' })[0]).toMatch(/^kind: /);
  });
});
