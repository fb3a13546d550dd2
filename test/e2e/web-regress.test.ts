/**
 * The web console's Regress panel in a real Chromium: `arena regress
 * --workers` against a real PostgreSQL shows up in the console of an `arena
 * serve` on the same database, queued before any worker exists, then its runs
 * done per arm climbing as 2 `arena worker` processes take them, then the
 * verdict regress printed. Also the route's answers without PostgreSQL and for
 * a bad limit.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { openPage } from '../helpers/chromium.js';
import { REPO_ROOT, arena } from '../helpers/cli.js';
import { createDatabase } from '../helpers/postgres.js';
import { startWorker } from '../helpers/worker.js';
import { http, startServe } from './serve-helpers.js';

const FAST = ['--survival', '500ms', '--interval', '100ms', '--recovery-deadline', '1s', '--cooldown', '300ms'];
const STRATEGIES = ['--baseline', 'strategies/recovery-off.yaml', '--candidate', 'strategies/default.yaml'];

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe('web console: Regress panel', () => {
  it('a regress with 2 workers on PostgreSQL: queued, then runs done per arm climbing, then the verdict regress printed', async () => {
    const db = await createDatabase('webregress');
    cleanups.push(() => db.drop());
    const server = await startServe(['--store', db.url]);
    cleanups.push(() => server.stop());
    const { page, close } = await openPage(server.url);
    cleanups.push(close);
    await expect
      .poll(() => page.getByTestId('regress-empty').textContent(), { timeout: 30_000 })
      .toContain('no regress --workers job on postgres://');

    // no worker yet: the runs wait on the queue, and the page says so
    const regress = arena(
      ['regress', ...STRATEGIES, ...FAST, '--runs', '3', '--seed', '11', '--json', '--workers', db.url],
      { timeout: 90_000 },
    );
    cleanups.push(async () => {
      regress.kill('SIGINT');
      await regress;
    });
    const job = page.locator('[data-testid=regress] li.regress-job').first();
    const arm = (name: string) => job.locator(`tr[data-arm=${name}]`);
    await expect.poll(() => arm('candidate').getAttribute('data-total'), { timeout: 30_000 }).toBe('3');
    expect(await job.getAttribute('data-status')).toBe('running');
    await expect
      .poll(() => job.locator('.regress-head strong').textContent(), { timeout: 30_000 })
      .toBe('strategies/default.yaml vs strategies/recovery-off.yaml');
    await expect.poll(() => arm('baseline').locator('td').nth(3).textContent(), { timeout: 30_000 }).toBe('3');
    expect(await arm('baseline').getAttribute('data-done')).toBe('0');
    expect(await job.getByTestId('regress-estimate').textContent()).toBe('estimate: no complete pair yet');

    // 2 workers take the runs: what the page shows only ever climbs, up to the verdict
    const seen: number[] = [];
    const sample = async () => {
      const done = await Promise.all(
        ['baseline', 'candidate'].map((a) =>
          arm(a)
            .getAttribute('data-done', { timeout: 1000 })
            .catch(() => null),
        ),
      );
      if (done.every((d) => d !== null)) seen.push(Number(done[0]) + Number(done[1]));
    };
    let watching = true;
    const watcher = (async () => {
      while (watching) {
        await sample();
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    startWorker(db.url, cleanups);
    startWorker(db.url, cleanups);
    const r = await regress;
    expect(r.exitCode, r.stderr).toBe(0);
    const verdict = (JSON.parse(r.stdout) as { regression: { decision: string; runs_used: number } }).regression;
    await expect.poll(() => job.getAttribute('data-status'), { timeout: 30_000 }).toBe('finished');
    watching = false;
    await watcher;
    // the watcher's last look may predate the page's last render
    await sample();
    expect(await job.getByTestId('regress-decision').getAttribute('data-decision')).toBe(verdict.decision);
    expect(await job.getByTestId('regress-decision').textContent()).toContain(`${verdict.runs_used} runs per arm`);
    for (const a of ['baseline', 'candidate']) {
      expect(await arm(a).getAttribute('data-done')).toBe('3');
      expect(await arm(a).getAttribute('data-total')).toBe('3');
    }
    expect(await job.getByTestId('regress-estimate').textContent()).toMatch(
      /^estimate: candidate − baseline [+-]\d+\.\d over 3 pairs/,
    );
    expect(await job.locator('.regress-head').textContent()).toContain('2 workers');
    expect(seen[0]).toBe(0);
    expect(seen[seen.length - 1]).toBe(6);
    expect(seen.every((n, i) => i === 0 || n >= seen[i - 1]!)).toBe(true);
    await page
      .screenshot({ path: join(REPO_ROOT, 'test-artifacts', 'console-regress.png'), fullPage: true })
      .catch(() => undefined);
  }, 120_000);

  it('GET /arena/regress: no PostgreSQL store says so instead of an empty list; a bad limit is a 400', async () => {
    const server = await startServe();
    cleanups.push(() => server.stop());
    const none = await http(server.url, 'GET', '/arena/regress');
    expect(none.status).toBe(200);
    expect(none.json).toEqual({
      available: false,
      reason: expect.stringContaining('needs a PostgreSQL store'),
      jobs: [],
    });
    const bad = await http(server.url, 'GET', '/api/v1/arena/regress?limit=0');
    expect(bad.status).toBe(400);
    expect(bad.json.error).toBe('query parameter limit must be an integer from 1 to 100, got "0"');
  });
});
