/** GET /metrics on a run's `--serve` feed: the run's faults, score and verdict in the Prometheus format, behind the key. */
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { ARENA_BIN, REPO_ROOT } from '../helpers/cli.js';

const sample = (text: string, name: string, labels: Record<string, string>) => {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue;
    const inner = line.slice(name.length + 1, line.indexOf('}'));
    if (Object.entries(labels).every(([k, v]) => inner.includes(`${k}="${v}"`))) return Number(line.split(' ').at(-1));
  }
  return undefined;
};

describe('arena survival --serve: GET /metrics', () => {
  it('counts the run’s faults and serves its score while it runs, with a bearer key; 401 without', async () => {
    const proc = execa(
      'node',
      [ARENA_BIN, 'survival', '--duration', '2500ms', '--interval', '200ms', '--seed', '4', '--serve', '0', '--json'],
      {
        reject: false,
        cwd: REPO_ROOT,
        extendEnv: false,
        env: { PATH: process.env.PATH ?? '', NO_COLOR: '1', CI: '1', ARENA_API_KEY: 'run-key' },
        timeout: 30_000,
      },
    );
    let err = '';
    const url = await new Promise<string>((resolve, reject) => {
      proc.stderr!.on('data', (c: Buffer) => {
        err += c.toString();
        const m = /serving run events on (http:\/\/\S+)\/arena\/stream/.exec(err);
        if (m) resolve(m[1]!);
      });
      void proc.then(() => reject(new Error(`no URL printed: ${err}`)));
    });
    expect((await fetch(`${url}/metrics`)).status).toBe(401);
    let text = '';
    const deadline = Date.now() + 20_000;
    // scraped until the run has injected something, taken a snapshot and served requests (or the run ended)
    while (Date.now() < deadline && proc.exitCode === null) {
      const res = await fetch(`${url}/metrics`, { headers: { authorization: 'Bearer run-key' } }).catch(
        () => undefined,
      );
      if (!res) break;
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/plain');
      text = await res.text();
      if (
        /^arena_faults_injected_total\{/m.test(text) &&
        /^arena_score\{dimension="recovery"\}/m.test(text) &&
        (sample(text, 'arena_workload_requests_total', { outcome: 'succeeded' }) ?? 0) > 0
      )
        break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(text).toMatch(
      /^arena_faults_injected_total\{type="[a-z_]+",target="[^"]*",outcome="(applied|refused)"\} [1-9]/m,
    );
    expect(sample(text, 'arena_score', { dimension: 'recovery' })).toBeGreaterThanOrEqual(0);
    expect(text).toContain('# TYPE arena_fault_recovery_seconds histogram');
    // read from the run's target at each scrape: the embedded workload has been running since the warm-up
    expect(sample(text, 'arena_workload_requests_total', { outcome: 'succeeded' })).toBeGreaterThan(0);
    expect(sample(text, 'arena_workload_requests_total', { outcome: 'failed' })).toBeGreaterThanOrEqual(0);
    const r = await proc;
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(String(r.stdout)).schema_version).toBe(1);
  }, 60_000);
});
