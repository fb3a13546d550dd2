/**
 * Issue 35 (DESIGN §16) on a real process fleet (test/fixtures/process-fleet) through the built CLI:
 * a `prometheus:` stop condition over Debian's real Prometheus stops the run the scenario hurts,
 * whether Prometheus scrapes the arena's own /metrics (the run's `--serve` feed, with ARENA_API_KEY as
 * the bearer key of the scrape config) or the system's exporter (here a small one that probes the
 * fleet's workers); a Prometheus that cannot be reached stops it too (on_error: stop); `max_affected: 1` with two overlapping pauses never has two
 * processes stopped at once (polled from /proc) and reports the skip.
 * scripts/ensure-prometheus.sh (npm pretest) installs the package.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa, type ResultPromise } from 'execa';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ScenarioReport } from '../../src/arena/report.js';
import { arena } from '../helpers/cli.js';
import { FLEET_DIR, freePorts, processesMatching, procState } from '../helpers/process-fleet.js';

const PROMETHEUS = process.env.ARENA_PROMETHEUS ?? '/usr/bin/prometheus';
const tag = `stop${process.pid}`;
let dir = '';
let closers: Array<() => Promise<unknown>> = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'arena-safety-stop-'));
  closers = [];
});

afterEach(async () => {
  for (const close of closers.reverse()) await close().catch(() => undefined);
  rmSync(dir, { recursive: true, force: true });
  expect(processesMatching(tag)).toEqual([]);
}, 60_000);

/** a fleet of `count` workers with restarts off; returns its target file and the workers' ids and ports */
async function fleet(count = 2) {
  const [front, ...ports] = await freePorts(count + 1);
  const workers = ports.map((port, i) => ({ id: `${tag}-${'abcdefgh'[i]}`, port }));
  const file = join(dir, 'target.yaml');
  writeFileSync(
    file,
    `kind: process
name: stop-fleet
start:
  command: ${JSON.stringify(`exec node ${join(FLEET_DIR, 'supervisor.mjs')} ${front} 0 ${workers.map((w) => `${w.id}=${w.port}`).join(' ')}`)}
  ready: { http: "http://127.0.0.1:${front}/healthz", timeout: 10s }
  grace: 1s
agents:
${workers.map((w) => `  - id: ${w.id}\n    pid: { port: ${w.port} }\n    health: { http: "http://127.0.0.1:${w.port}/", interval: 50ms, timeout: 300ms }`).join('\n')}
workload:
  rate: 20/s
  request: { method: POST, url: "http://127.0.0.1:${front}/task", timeout: 1s }
`,
  );
  return { file, workers };
}

function scenarioFile(text: string): string {
  const file = join(dir, 'scenario.yaml');
  writeFileSync(file, text);
  return file;
}

/** a stand-in exporter: on each scrape it probes every worker (300 ms) and says which answered */
async function exporter(workers: Array<{ id: string; port: number }>): Promise<string> {
  const probe = (port: number) =>
    new Promise<number>((resolve) => {
      const req = http.get({ host: '127.0.0.1', port, path: '/', timeout: 300 }, (res) => {
        res.resume();
        resolve(res.statusCode === 200 ? 1 : 0);
      });
      req.on('timeout', () => req.destroy());
      req.on('error', () => resolve(0));
    });
  const server = http.createServer(async (_req, res) => {
    const up = await Promise.all(workers.map((w) => probe(w.port)));
    res.setHeader('content-type', 'text/plain; version=0.0.4');
    res.end(
      `# TYPE fleet_worker_up gauge\n${workers.map((w, i) => `fleet_worker_up{worker="${w.id}"} ${up[i]}`).join('\n')}\n`,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise((resolve) => server.close(resolve)));
  return `127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Debian's Prometheus scraping `scrapeTarget` every 500 ms, with `bearer` as its scrape config's key */
async function prometheus(scrapeTarget: string, bearer?: string): Promise<string> {
  const [port] = await freePorts(1);
  writeFileSync(
    join(dir, 'prometheus.yml'),
    [
      'global:',
      '  scrape_interval: 500ms',
      '  scrape_timeout: 400ms',
      'scrape_configs:',
      '  - job_name: fleet',
      ...(bearer ? ['    authorization:', '      type: Bearer', `      credentials: ${bearer}`] : []),
      '    static_configs:',
      `      - targets: ['${scrapeTarget}']`,
      '',
    ].join('\n'),
  );
  const child: ResultPromise = execa(
    PROMETHEUS,
    [
      `--config.file=${join(dir, 'prometheus.yml')}`,
      `--storage.tsdb.path=${join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--log.level=warn',
    ],
    { reject: false, cleanup: true, extendEnv: false, env: { PATH: process.env.PATH ?? '' } },
  );
  closers.push(async () => {
    child.kill('SIGTERM');
    await child;
  });
  const url = `http://127.0.0.1:${port}`;
  await until(() => fetch(`${url}/-/ready`).then((r) => r.ok), 'prometheus to be ready');
  return url;
}

/** polls until `ok` (a safety net of 60 s for a busy runner, not a timing claim) */
async function until(ok: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!(await ok().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const reportOf = (stdout: string) => (JSON.parse(stdout) as { scenarios: ScenarioReport[] }).scenarios[0]!;

describe('stop_when with a real Prometheus', { timeout: 150_000 }, () => {
  it("over the arena's own /metrics (the run's --serve feed, scraped with ARENA_API_KEY as bearer): the 2nd applied fault stops the run", async () => {
    const { file, workers } = await fleet(3);
    const [a, b, c] = workers.map((w) => w.id);
    // the feed's port is picked up front so that Prometheus's config can name it
    const [feedPort] = await freePorts(1);
    const promUrl = await prometheus(`127.0.0.1:${feedPort}`, 'run-key');
    // `or vector(0)`: one number before the first scrape of the feed too (no series would stop the run, on_error: stop)
    const query = 'sum(arena_faults_injected_total{outcome="applied"}) or vector(0)';
    const scenario = scenarioFile(`name: stop-on-own-metrics
config:
  warmup: 1s
  cooldown: 5s
  timeout: 3m
  stop_when:
    prometheus: { url: "${promUrl}", query: '${query}', above: 1 }
actions:
  - { label: pause-a, action: { type: pause_agent, target_id: ${a}, metadata: { duration: 90s } } }
  - { label: pause-b, delay: 1s, action: { type: pause_agent, target_id: ${b}, metadata: { duration: 90s } } }
  - { label: pause-c, delay: 60s, action: { type: pause_agent, target_id: ${c}, metadata: { duration: 90s } } }
`);
    const result = await arena(['scenario', 'run', scenario, '--target', file, '--serve', String(feedPort), '--json'], {
      timeout: 150_000,
      env: { ARENA_API_KEY: 'run-key' },
    });
    expect(result.exitCode, result.stderr).toBe(1);
    const report = reportOf(result.stdout);
    expect(report.status).toBe('failed');
    expect(report.stopped_by, report.stopped_by?.reason).toMatchObject({
      kind: 'prometheus',
      condition: `prometheus ${query} > 1`,
      value: 2,
    });
    const byLabel = Object.fromEntries(report.results.map((r) => [r.label, r]));
    expect(byLabel['pause-a']!.result.success).toBe(true);
    expect(byLabel['pause-b']!.result.success).toBe(true);
    expect(report.stopped_by!.at_ms).toBeGreaterThanOrEqual(byLabel['pause-b']!.at_ms!);
    // stopped before the third fault: it was never applied, and both pauses were reverted
    expect(byLabel['pause-c']?.result.success).not.toBe(true);
    expect(result.stderr).not.toMatch(/action pause-c pause_agent/);
    expect(report.reverted_faults!.map((f) => [f.kind, f.target])).toEqual([
      ['pause_agent', a],
      ['pause_agent', b],
    ]);
    expect(result.stderr).toMatch(new RegExp(`reverted pause_agent on ${a}`));
    expect(result.stderr).toMatch(new RegExp(`reverted pause_agent on ${b}`));
    // the value came from Prometheus's scrapes of the feed, which the bearer key let in (a 401 is up == 0)
    const res = await fetch(
      `${promUrl}/api/v1/query?query=${encodeURIComponent('max_over_time(up{job="fleet"}[10m])')}`,
    );
    const up = (await res.json()) as { data: { result: Array<{ value: [number, string] }> } };
    expect(up.data.result.map((s) => s.value[1])).toEqual(['1']);
  });

  it("a prometheus condition the scenario makes true over the system's exporter (a worker paused: min(fleet_worker_up) < 1) stops the run", async () => {
    const { file, workers } = await fleet();
    const promUrl = await prometheus(await exporter(workers));
    // the first scrape has landed: a query that matches no series would stop the run (on_error: stop)
    await until(async () => {
      const res = await fetch(`${promUrl}/api/v1/query?query=${encodeURIComponent('min(fleet_worker_up)')}`);
      const body = (await res.json()) as { data?: { result?: unknown[] } };
      return (body.data?.result?.length ?? 0) > 0;
    }, 'a first scrape of the exporter');
    const scenario = scenarioFile(`name: pause-until-prometheus-sees-it
config:
  warmup: 2s
  cooldown: 5s
  timeout: 2m
  stop_when:
    prometheus: { url: "${promUrl}", query: "min(fleet_worker_up)", below: 1 }
actions:
  - { label: pause, action: { type: pause_agent, target_id: ${workers[0]!.id}, metadata: { duration: 60s } } }
`);
    const result = await arena(['scenario', 'run', scenario, '--target', file, '--json'], { timeout: 120_000 });
    expect(result.exitCode, result.stderr).toBe(1);
    const report = reportOf(result.stdout);
    expect(report.status).toBe('failed');
    expect(report.stopped_by, report.stopped_by?.reason).toMatchObject({
      kind: 'prometheus',
      condition: 'prometheus min(fleet_worker_up) < 1',
      value: 0,
    });
    // the 60 s pause was cut short by the stop and reverted
    expect(report.duration_ms).toBeLessThan(45_000);
    expect(report.reverted_faults!.map((f) => [f.kind, f.target])).toEqual([['pause_agent', workers[0]!.id]]);
    expect(result.stderr).toMatch(
      /stopped by prometheus min\(fleet_worker_up\) < 1 at [\d.]+s: min\(fleet_worker_up\) = 0, below 1/,
    );
  });

  it('a Prometheus that cannot be reached stops the run (on_error: stop), saying why', async () => {
    const { file, workers } = await fleet();
    const [closed] = await freePorts(1);
    const scenario = scenarioFile(`name: unreachable
config:
  warmup: 500ms
  cooldown: 5s
  stop_when: { prometheus: { url: "http://127.0.0.1:${closed}", query: "up", below: 1 } }
actions:
  - { label: pause, action: { type: pause_agent, target_id: ${workers[0]!.id}, metadata: { duration: 60s } } }
`);
    const result = await arena(['scenario', 'run', scenario, '--target', file, '--json'], { timeout: 120_000 });
    expect(result.exitCode, result.stderr).toBe(1);
    const report = reportOf(result.stdout);
    expect(report.stopped_by).toMatchObject({ kind: 'prometheus', value: null });
    expect(report.stopped_by!.reason).toMatch(/could not be evaluated \(on_error: stop\): .*connection refused/);
    expect(report.duration_ms).toBeLessThan(45_000);
  });
});

describe('max_affected', { timeout: 120_000 }, () => {
  it('1 with two overlapping pauses: never two processes stopped at once (/proc), the second reported skipped', async () => {
    const { file, workers } = await fleet();
    const scenario = scenarioFile(`name: blast-radius
config: { warmup: 500ms, cooldown: 1s, timeout: 1m, parallel_actions: true, max_affected: 1 }
actions:
  - { label: pause-a, action: { type: pause_agent, target_id: ${workers[0]!.id}, metadata: { duration: 2s } } }
  - { label: pause-b, delay: 500ms, action: { type: pause_agent, target_id: ${workers[1]!.id}, metadata: { duration: 2s } } }
`);
    const run = arena(['scenario', 'run', scenario, '--target', file, '--json'], { timeout: 90_000 });
    let most = 0;
    let samples = 0;
    let sawStopped = false;
    let polling = true;
    const poll = (async () => {
      while (polling) {
        const stopped = workers.filter((w) =>
          processesMatching(`tiny-agent ${w.id}`).some((p) => procState(p.pid) === 'T'),
        ).length;
        most = Math.max(most, stopped);
        if (stopped > 0) sawStopped = true;
        samples++;
        await new Promise((r) => setTimeout(r, 10));
      }
    })();
    const result = await run;
    polling = false;
    await poll;
    expect(result.exitCode, result.stderr).toBe(0);
    const report = reportOf(result.stdout);
    const byLabel = Object.fromEntries(report.results.map((r) => [r.label, r.result]));
    expect(byLabel['pause-a']!.success).toBe(true);
    expect(byLabel['pause-b']).toMatchObject({ success: false, skipped: true });
    expect(byLabel['pause-b']!.error).toMatch(/max_affected 1/);
    expect(result.stderr).toMatch(/pause-b pause_agent .* failed: skipped: max_affected 1/);
    expect(sawStopped, `${samples} samples`).toBe(true);
    expect(most).toBe(1);
  });
});
