/**
 * Issue 36, DESIGN §17: Debian's real Prometheus scrapes `arena serve` with a
 * bearer key (what its scrape config's `authorization` sends), and PromQL over
 * its HTTP API sees the fault injected through the arena's API, the score and
 * the recovery histogram. promtool finds nothing wrong with the exposition.
 * scripts/ensure-prometheus.sh (npm pretest) installs the package.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa, type ResultPromise } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, startServe, type ServeProcess } from './serve-helpers.js';

const PROMETHEUS = process.env.ARENA_PROMETHEUS ?? '/usr/bin/prometheus';
const PROMTOOL = process.env.ARENA_PROMTOOL ?? '/usr/bin/promtool';
const KEY = 'prometheus-scrape-key';
/** safety nets for a busy 2-core runner: a scrape every second normally lands within a few */
const WAIT_MS = 90_000;

let dir: string;
let serve: ServeProcess;
let prometheus: ResultPromise | undefined;
let promUrl: string;
let promLog = '';

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function query(promql: string): Promise<Array<{ metric: Record<string, string>; value: [number, string] }>> {
  const res = await fetch(`${promUrl}/api/v1/query?query=${encodeURIComponent(promql)}`);
  const body = (await res.json()) as { status: string; data: { result: never[] } };
  expect(body.status).toBe('success');
  return body.data.result;
}

/** polls a PromQL query until `ok` holds for its result (a scrape has landed) */
async function until(promql: string, ok: (r: Awaited<ReturnType<typeof query>>) => boolean) {
  const deadline = Date.now() + WAIT_MS;
  let last: Awaited<ReturnType<typeof query>> = [];
  while (Date.now() < deadline) {
    last = await query(promql).catch(() => []);
    if (ok(last)) return last;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(
    `${promql} never satisfied the test in ${WAIT_MS} ms; last result ${JSON.stringify(last)}\n${promLog}`,
  );
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'arena-prometheus-'));
  serve = await startServe(['--api-key', KEY]);
  const target = new URL(serve.url).host;
  const promPort = await freePort();
  promUrl = `http://127.0.0.1:${promPort}`;
  writeFileSync(
    join(dir, 'prometheus.yml'),
    [
      'global:',
      '  scrape_interval: 1s',
      '  evaluation_interval: 1s',
      'scrape_configs:',
      '  - job_name: arena',
      '    metrics_path: /metrics',
      '    authorization:',
      '      type: Bearer',
      `      credentials: ${KEY}`,
      '    static_configs:',
      `      - targets: ['${target}']`,
      '',
    ].join('\n'),
  );
  prometheus = execa(
    PROMETHEUS,
    [
      `--config.file=${join(dir, 'prometheus.yml')}`,
      `--storage.tsdb.path=${join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${promPort}`,
      '--log.level=warn',
    ],
    { reject: false, cleanup: true, extendEnv: false, env: { PATH: process.env.PATH ?? '' } },
  );
  prometheus.stderr?.on('data', (c: Buffer) => (promLog += c.toString()));
}, 60_000);

afterAll(async () => {
  if (prometheus) {
    prometheus.kill('SIGTERM');
    await prometheus;
  }
  await serve?.stop();
  rmSync(dir, { recursive: true, force: true });
}, 60_000);

describe('Prometheus scrapes arena serve', () => {
  it('/metrics without a key is a 401; with the bearer key, promtool finds the exposition clean', async () => {
    expect((await http(serve.url, 'GET', '/metrics')).status).toBe(401);
    const r = await http(serve.url, 'GET', '/metrics', { headers: { Authorization: `Bearer ${KEY}` } });
    expect(r.status).toBe(200);
    const check = await execa(PROMTOOL, ['check', 'metrics'], { input: r.text, reject: false });
    expect(check.exitCode, `${check.stdout}${check.stderr}`).toBe(0);
    expect(`${check.stdout}${check.stderr}`.trim()).toBe('');
  });

  it(
    'PromQL sees the fault injected through the API by type, the score, and the recovery count',
    async () => {
      const bearer = { Authorization: `Bearer ${KEY}` };
      const agents = await http(serve.url, 'GET', '/api/v1/agents', { headers: bearer });
      const id: string = agents.json.agents[0].id;
      const kill = await http(serve.url, 'POST', `/api/v1/arena/agent/${id}/kill`, { headers: bearer });
      expect(kill.status, kill.text).toBe(200);

      const up = await until('up{job="arena"}', (r) => r.length === 1 && r[0]!.value[1] === '1');
      expect(up[0]!.metric.job).toBe('arena');
      const injected = await until('arena_faults_injected_total', (r) => r.length > 0);
      expect(injected).toEqual([
        expect.objectContaining({
          metric: expect.objectContaining({ type: 'kill_agent', target: id, outcome: 'applied' }),
          value: [expect.any(Number), '1'],
        }),
      ]);
      const byType = await query('sum by (type) (arena_faults_injected_total)');
      expect(byType.map((s) => [s.metric.type, s.value[1]])).toEqual([['kill_agent', '1']]);
      const score = await until('arena_score', (r) => r.some((s) => s.metric.dimension === 'score'));
      expect(score.map((s) => s.metric.dimension).sort()).toEqual(
        expect.arrayContaining(['availability', 'recovery', 'score']),
      );
      const recovered = await until('arena_fault_recovery_seconds_count', (r) => r.some((s) => s.value[1] === '1'));
      expect(recovered[0]!.metric.type).toBe('kill_agent');
    },
    2 * WAIT_MS,
  );
});
