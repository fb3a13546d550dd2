/**
 * The web console's Shrink view in a real Chromium: `arena shrink --store FILE` on a six-fault failing
 * scenario report of the embedded runtime (two of the faults make it fail), and an `arena serve` on the
 * same SQLite file. The page shows the shrink while it runs (the candidate tried, the smallest failing
 * size, runs spent, phase), then the minimal faults and the certificate the command printed with --json.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPage } from '../helpers/chromium.js';
import { REPO_ROOT, arena } from '../helpers/cli.js';
import { http, startServe } from './serve-helpers.js';

const FIXTURE = 'test/fixtures/shrink/two-fault-bug.yaml';
const OFF = 'strategies/recovery-off.yaml';

interface ShrinkDoc {
  original_faults: number;
  minimal_faults: number;
  faults: Array<{ label: string }>;
  runs: number;
  candidates: number;
  runs_by_phase: Record<string, { runs: number; candidates: number }>;
  certificate: Array<{ fault: string; fail_rate_without: number; runs: number; interval: [number, number] }>;
}

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe('web console: Shrink view', () => {
  it('follows a running arena shrink --store and ends on the minimal faults and certificate its --json printed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'arena-webshrink-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const report = join(dir, 'report.json');
    const run = await arena(['scenario', 'run', FIXTURE, '--strategy', OFF, '--report', report, '--json']);
    expect(run.exitCode, run.stderr).toBe(1);

    const db = join(dir, 'arena.db');
    const server = await startServe(['--store', db]);
    cleanups.push(() => server.stop());
    const { page, close } = await openPage(server.url);
    cleanups.push(close);
    await expect.poll(() => page.getByTestId('shrink-empty').textContent(), { timeout: 30_000 }).toContain(db);

    // some 60 candidate runs of about 0.8 s each at --time-scale 0.5: 40 s on a quiet machine
    const out = join(dir, 'min.yaml');
    const shrink = arena(['shrink', report, '--out', out, '--time-scale', '0.5', '--json', '--store', db], {
      timeout: 600_000,
    });
    cleanups.push(async () => {
      shrink.kill('SIGINT');
      await shrink;
    });
    const job = page.locator('[data-testid=shrink] li.shrink-job').first();
    // seen while running: a candidate being tried, and the smallest failing size going down
    const sizes: number[] = [];
    const lines: string[] = [];
    let midway = false;
    let watching = true;
    cleanups.push(() => {
      watching = false;
    });
    const watcher = (async () => {
      while (watching) {
        const [status, size, line] = await Promise.all([
          job.getAttribute('data-status', { timeout: 1000 }).catch(() => null),
          job.getAttribute('data-size', { timeout: 1000 }).catch(() => null),
          job
            .getByTestId('shrink-progress')
            .textContent({ timeout: 1000 })
            .catch(() => null),
        ]);
        if (status === 'running' && size !== null && line !== null) {
          sizes.push(Number(size));
          lines.push(line);
          if (
            /^candidate \d+ · size [2-5] of 6 · runs \d+ · phase (search|compress|certificate) · trying \d+: /.test(
              line,
            )
          )
            midway = true;
        }
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    const r = await shrink;
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toMatch(
      /shrink: recording job \S+ in .*arena\.db \(arena serve --store on it shows the Shrink view\)/,
    );
    const doc = JSON.parse(r.stdout) as ShrinkDoc;
    await expect.poll(() => job.getAttribute('data-status'), { timeout: 30_000 }).toBe('shrunk');
    watching = false;
    await watcher;
    expect(midway, `the page never showed the shrink midway (lines seen: ${[...new Set(lines)].join(' | ')})`).toBe(
      true,
    );
    expect(
      sizes.every((n, i) => i === 0 || n <= sizes[i - 1]!),
      `sizes seen: ${sizes.join(',')}`,
    ).toBe(true);

    // the end: the --json document's minimal faults, runs and certificate
    expect(doc.faults.map((f) => f.label)).toEqual(['kill-3', 'slow-3']);
    expect(await job.getAttribute('data-size')).toBe('2');
    expect(await job.getAttribute('data-runs')).toBe(String(doc.runs));
    expect(await job.getByTestId('shrink-progress').textContent()).toContain(
      `candidate ${doc.candidates} · size 2 of 6 · runs ${doc.runs}`,
    );
    const rows = job.locator('[data-testid=shrink-minimal] tbody tr');
    const faults: Array<string | null> = [];
    for (let i = 0; i < (await rows.count()); i++) faults.push(await rows.nth(i).getAttribute('data-fault'));
    expect(faults).toEqual(['kill-3', 'slow-3']);
    for (const c of doc.certificate) {
      const row = job.locator(`[data-testid=shrink-minimal] tr[data-fault="${c.fault}"]`);
      expect(Number(await row.getAttribute('data-fail-rate'))).toBe(c.fail_rate_without);
      expect(await row.textContent()).toContain(
        `[${(c.interval[0] * 100).toFixed(0)}%, ${(c.interval[1] * 100).toFixed(0)}%]`,
      );
    }
    const phases = await job.getByTestId('shrink-phases').textContent();
    for (const [phase, c] of Object.entries(doc.runs_by_phase).filter(([, c]) => c.runs > 0))
      expect(phases).toContain(`${phase} ${c.runs} (${c.candidates} candidate${c.candidates === 1 ? '' : 's'})`);

    // the route the view polls, and a bad limit refused
    const reply = await http(server.url, 'GET', '/api/v1/arena/shrinks?limit=1');
    expect(reply.status).toBe(200);
    expect(reply.json.jobs[0]).toMatchObject({
      status: 'shrunk',
      original_faults: 6,
      minimal_faults: ['kill-3', 'slow-3'],
      runs: doc.runs,
      candidates: doc.candidates,
      runs_by_phase: doc.runs_by_phase,
      certificate: doc.certificate,
      source: report,
      seed: 11,
    });
    const bad = await http(server.url, 'GET', '/arena/shrinks?limit=101');
    expect(bad.status).toBe(400);
    expect(bad.json.error).toBe('query parameter limit must be an integer from 1 to 100, got "101"');
    await page
      .screenshot({ path: join(REPO_ROOT, 'test-artifacts', 'console-shrink.png'), fullPage: true })
      .catch(() => undefined);
  }, 600_000);
});
