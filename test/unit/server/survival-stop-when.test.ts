/**
 * `stop_when` in the body of POST /arena/survival (DESIGN §16): the keys of a scenario's
 * config.stop_when; a bad key is a 400 naming its path and starts nothing; a condition the
 * survival makes true ends it early, faults reverted, the report saying why.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { call, serveRootForTest, stateOf } from './hardening/served-root.js';

let servers: http.Server[] = [];
afterEach(async () => {
  for (const s of servers) await new Promise((r) => s.close(r));
  servers = [];
});

/** a stand-in Prometheus: every instant query answers `value` */
async function prometheusAnswering(value: number): Promise<{ url: string; queries: string[] }> {
  const queries: string[] = [];
  const server = http.createServer((req, res) => {
    queries.push(new URL(req.url ?? '/', 'http://x').searchParams.get('query') ?? '');
    res.setHeader('content-type', 'application/json');
    res.end(
      JSON.stringify({ status: 'success', data: { resultType: 'scalar', result: [Date.now() / 1000, `${value}`] } }),
    );
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  servers.push(server);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, queries };
}

describe('POST /arena/survival with stop_when', () => {
  it('a bad stop_when is a 400 naming the path of the bad key, and starts nothing', async () => {
    const { url, root } = await serveRootForTest();
    const before = await stateOf(root);
    const cases: Array<[object, string]> = [
      [
        { stop_when: { availabilty_below: { value: 80, window: '1s' } } },
        'body.stop_when.availabilty_below: unknown key',
      ],
      [{ stop_when: { availability_below: { value: 80, windw: '1s' } } }, 'body.stop_when.availability_below.windw'],
      [{ stop_when: { availability_below: { value: 180, window: '1s' } } }, 'body.stop_when.availability_below.value'],
      [{ stop_when: { prometheus: { url: 'http://127.0.0.1:1', query: 'up' } } }, 'body.stop_when.prometheus'],
      [{ stop_when: {} }, 'names no condition'],
      [{ stop_when: 'availability_below' }, 'body.stop_when'],
      [
        { stop_when: { prometheus: { url: 'http://127.0.0.1:1', query: 'up', below: 1, token_env: 'HOME' } } },
        'body.stop_when.prometheus.token_env: not available over HTTP',
      ],
      // known only by asking the target: refused before the run starts, not a background error
      [{ stop_when: { probe_failures: { agent: 'agent-99', count: 2 } } }, 'the target has no agent "agent-99"'],
    ];
    for (const [body, message] of cases) {
      const r = await call(url, 'POST', '/arena/survival', { duration: '5s', interval: '100ms', ...body });
      expect(r.status, `${JSON.stringify(body)}: ${r.text}`).toBe(400);
      // the first problem in `error`, every one in `details`
      expect([r.json.error, ...(r.json.details ?? [])].join('\n'), JSON.stringify(body)).toContain(message);
    }
    expect(await stateOf(root)).toBe(before);
    expect((await call(url, 'GET', '/arena/survival/status')).json.running).toBe(false);
  });

  it('a prometheus condition that holds once faults land stops the survival early: faults reverted, stopped_by reported', async () => {
    const prometheus = await prometheusAnswering(3);
    const { url, root } = await serveRootForTest();
    const started = await call(url, 'POST', '/arena/survival', {
      duration: '60s',
      interval: '100ms',
      seed: 4,
      actions: ['pause_agent', 'slow_agent'],
      stop_when: { prometheus: { url: prometheus.url, query: 'sum(arena_faults_active)', above: 0 } },
    });
    expect(started.status, started.text).toBe(202);
    // a safety net for a busy runner; the run would otherwise last 60 s
    const deadline = Date.now() + 30_000;
    let report: any;
    while (Date.now() < deadline) {
      const r = await call(url, 'GET', '/arena/survival/report');
      if (r.status === 200) {
        report = r.json;
        break;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(report, 'the survival never ended').toBeDefined();
    expect(report.stopped_by).toMatchObject({
      kind: 'prometheus',
      condition: 'prometheus sum(arena_faults_active) > 0',
      value: 3,
    });
    expect(report.status).toBe('failed');
    expect(report.elapsed_ms).toBeLessThan(30_000);
    expect(report.actions_run).toBeGreaterThan(0);
    expect(prometheus.queries.every((q) => q === 'sum(arena_faults_active)')).toBe(true);
    expect(prometheus.queries.length).toBeGreaterThan(0);
    expect(await root.services.target.runtime.activeFaults()).toEqual([]);
  }, 60_000);
});
