/**
 * The web console in a real Chromium (Debian's chromium package, driven by
 * playwright-core; `npm test` installs it through scripts/ensure-chromium.sh
 * and this suite fails, never skips, when it is missing). One `arena serve`
 * and one browser for the file; the page reaches the server through a relay
 * the tests can cut. Screenshots go to test-artifacts/.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { HEADLESS_ARGS, launchChromium } from '../helpers/chromium.js';
import { REPO_ROOT } from '../helpers/cli.js';
import { startCutProxy, type CutProxy } from '../helpers/cut-proxy.js';
import { http, startServe, type ServeProcess } from './serve-helpers.js';

const KEY = 'console-test-key-7f3a';
const ARTIFACTS = join(REPO_ROOT, 'test-artifacts');
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

let server: ServeProcess;
let proxy: CutProxy;
let context: BrowserContext;
let profile: string;
let page: Page;
/** every URL the browser asked for: the key must never be in one */
const requested: string[] = [];
/** CSP violations and uncaught errors in any page: there must be none */
const pageProblems: string[] = [];

/** vitest's expect.poll gives up after 1 s; a loaded 2-core machine needs longer */
function poll<T>(fn: () => T | Promise<T>, options: { timeout?: number } = {}) {
  return expect.poll(fn, { timeout: 10_000, interval: 100, ...options });
}

async function shot(p: Page, name: string, fullPage = false): Promise<void> {
  await p.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage });
}

async function leader(p: Page): Promise<string | null> {
  return p.locator('[data-testid=agents] tr[data-role=leader]').first().getAttribute('data-agent', { timeout: 10_000 });
}

/** one attribute of every element the selector matches, in document order */
async function attributes(p: Page, selector: string, name: string): Promise<Array<string | null>> {
  return Promise.all((await p.locator(selector).all()).map((el) => el.getAttribute(name)));
}

/** the key this tab keeps (evaluated in the page, where sessionStorage exists) */
function storedKey(p: Page): Promise<string | null> {
  return p.evaluate('sessionStorage.getItem("arena.apiKey")');
}

async function timelineIds(p: Page): Promise<number[]> {
  const ids = await attributes(p, '[data-testid=timeline] li', 'data-event-id');
  return ids.map(Number).sort((a, b) => a - b);
}

beforeAll(async () => {
  if (!existsSync(join(REPO_ROOT, 'dist/web/index.html'))) throw new Error('dist/web is not built: run npm run build');
  mkdirSync(ARTIFACTS, { recursive: true });
  // the relay is another origin to the server: it is allowed explicitly (DESIGN §7)
  proxy = await startCutProxy(() => Number(new URL(server.url).port));
  server = await startServe(['--api-key', KEY, '--allowed-origin', proxy.url]);
  profile = mkdtempSync(join(tmpdir(), 'arena-chromium-'));
  context = await launchChromium(profile, {
    headless: true,
    viewport: DESKTOP,
    acceptDownloads: true,
    args: HEADLESS_ARGS,
  });
  context.on('request', (r) => requested.push(r.url()));
  context.on('page', (p) => watchPage(p));
  context.on('requestfailed', (r) => {
    // refused by the browser itself (CSP, mixed content), not by a cut connection
    if (/csp|blocked/i.test(r.failure()?.errorText ?? ''))
      pageProblems.push(`blocked: ${r.url()} ${r.failure()?.errorText}`);
  });
  page = context.pages()[0] ?? (await context.newPage());
  watchPage(page);
}, 45_000);

const watched = new WeakSet<Page>();
function watchPage(p: Page): void {
  if (watched.has(p)) return;
  watched.add(p);
  p.on('pageerror', (e) => pageProblems.push(`page error: ${e.message}`));
  p.on('console', (m) => {
    if (/Content.Security.Policy|Refused to/i.test(m.text())) pageProblems.push(`console: ${m.text()}`);
  });
}

/** the page fits the viewport's width: nothing to scroll sideways */
async function horizontalOverflow(p: Page): Promise<number> {
  return p.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth');
}

afterAll(async () => {
  await context?.close();
  await proxy?.close();
  await server?.stop();
  if (profile) rmSync(profile, { recursive: true, force: true });
}, 30_000);

describe('web console in Chromium', () => {
  it('serves the page and its assets without a key, under a strict CSP, and nothing else without one', async () => {
    const index = await http(server.url, 'GET', '/');
    expect(index.status).toBe(200);
    expect(index.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(index.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(index.headers.get('cache-control')).toBe('no-cache');
    const asset = /src="\.\/(assets\/console-[\w-]+\.js)"/.exec(index.text)![1]!;
    const js = await http(server.url, 'GET', `/${asset}`);
    expect(js.status).toBe(200);
    expect(js.headers.get('cache-control')).toContain('immutable');
    expect(js.headers.get('content-type')).toContain('javascript');
    expect((await http(server.url, 'GET', '/arena/dashboard')).status).toBe(401);
  });

  it('a wrong key gets nowhere: a clear message, nothing kept, no data shown', async () => {
    const wrong = await context.newPage();
    await wrong.setViewportSize(PHONE);
    await wrong.goto(proxy.url);
    await wrong.fill('#api-key', 'not-the-key');
    await wrong.click('button[type=submit]');
    await poll(() => wrong.locator('[data-testid=key-error]').textContent()).toContain('Wrong API key');
    expect(await wrong.locator('[data-testid=agents]').count()).toBe(0);
    expect(await storedKey(wrong)).toBeNull();
    expect(await horizontalOverflow(wrong)).toBe(0);
    await shot(wrong, 'wrong-key-phone');
    await wrong.close();
  });

  it('enter the key once and see the agents; a reload keeps the tab signed in', async () => {
    await page.goto(proxy.url);
    await page.fill('#api-key', KEY);
    await page.click('button[type=submit]');
    await page.locator('[data-testid=agents] tr[data-agent]').first().waitFor();
    const agents = await attributes(page, '[data-testid=agents] tr[data-agent]', 'data-agent');
    expect(agents).toEqual(['agent-1', 'agent-2', 'agent-3', 'orchestrator-1', 'orchestrator-2']);
    expect(await leader(page)).toMatch(/^agent-[123]$/);
    expect(await storedKey(page)).toBe(KEY);
    await poll(() => page.locator('[data-testid=connection]').textContent()).toBe('live');
    await page.reload();
    await page.locator('[data-testid=agents] tr[data-agent]').first().waitFor();
    expect(await page.locator('#api-key').count()).toBe(0);
  });

  it('inject kill_leader and watch the leader change', async () => {
    const before = await leader(page);
    await page.selectOption('[data-testid=inject] select[name=type]', 'kill_leader');
    await page.click('[data-testid=inject] button[type=submit]');
    await poll(() => page.locator('[data-testid=inject-outcome]').textContent()).toContain(
      `kill_leader → killed leader ${before}`,
    );
    await poll(() => leader(page), { timeout: 10_000 }).not.toBe(before);
    await poll(() => page.locator('[data-testid=timeline]').textContent()).toContain(`killed leader ${before}`);
    await shot(page, 'kill-leader-desktop');
  });

  it("a rejected action shows the server's error", async () => {
    await page.selectOption('[data-testid=inject] select[name=type]', 'slow_agent');
    await page.fill('[data-testid=inject] input[name=duration]', 'soon');
    await page.click('[data-testid=inject] button[type=submit]');
    await poll(() => page.locator('[data-testid=inject-outcome]').textContent()).toMatch(
      /Refused: .*invalid duration "soon".*\(400 /,
    );
  });

  it('the editor marks a scenario problem at its line:column', async () => {
    const bad = 'name: typo\nactions:\n  - label: a\n    action: { type: kill_agnet, target_id: agent-1 }\n';
    await page.fill('[data-testid=scenario-text]', bad);
    await poll(() => page.locator('[data-testid=scenario-problems]').textContent()).toContain('4:21');
    expect(await page.locator('[data-testid=scenario-problems]').textContent()).toContain(
      'unknown action type "kill_agnet"',
    );
    expect(await page.locator('.gutter .bad').textContent()).toBe('4');
    // the run button validates first and runs nothing while the problem stands
    await page.click('[data-testid=scenario-run]');
    await poll(() => page.locator('[data-testid=scenario-verdict]').textContent()).toContain('1 problem');
  });

  it("run a shipped scenario: the final score on the page equals the JSON report's", async () => {
    const file = join(REPO_ROOT, 'scenarios/leader-failover.yaml');
    await page.setInputFiles('[data-testid=scenario-file]', file);
    await poll(() => page.inputValue('[data-testid=scenario-text]')).toBe(readFileSync(file, 'utf8'));
    await page.click('[data-testid=scenario-run]');
    const score = page.locator('[data-testid=scenario-score]');
    await score.waitFor({ timeout: 45_000 });
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.click('[data-testid=scenario-download]'),
    ]);
    const report = JSON.parse(readFileSync((await download.path())!, 'utf8'));
    expect(report.name).toBe('leader-failover');
    expect(Number(await score.textContent())).toBe(report.score.score);
    expect(await page.locator('[data-testid=scenario-report]').textContent()).toContain(report.score.grade);
    await shot(page, 'scenario-desktop', true);
  }, 60_000);

  it("the timeline groups the run's faults under it, each with its recovery time; a reload draws the score from the server's history", async () => {
    const run = page.locator('[data-testid=timeline] section[data-run]').first();
    await poll(() => run.locator('h3').textContent()).toMatch(/scenario leader-failover \(seed \d+\) · \w+/);
    const runs = (await http(server.url, 'GET', '/arena/dashboard', { key: KEY })).json.runs as Array<{
      name: string;
      action_ids: string[];
    }>;
    const last = runs.at(-1)!;
    expect(last.name).toBe('leader-failover');
    expect(await run.locator('li').count()).toBe(last.action_ids.length);
    // the kill's recovery, as the server's score measured it, is on the kill's line
    const recoveries = (await http(server.url, 'GET', '/arena/score', { key: KEY })).json.recoveries as Array<{
      action_id: string;
      recovered: boolean;
      recovery_ms?: number;
    }>;
    const recovered = recoveries.filter((r) => last.action_ids.includes(r.action_id) && r.recovered);
    expect(recovered.length).toBeGreaterThan(0);
    await poll(() => run.locator('[data-testid=recovery]').allTextContents()).toContainEqual(
      expect.stringMatching(/recovered in \d/),
    );

    const history = (await http(server.url, 'GET', '/arena/score/history', { key: KEY })).json as {
      points: Array<{ at_ms: number }>;
    };
    expect(history.points.length).toBeGreaterThan(1);
    const reloadedAt = Date.now();
    await page.reload();
    // the chart's oldest point was read before the reload: it came from the server, not from this page
    const chart = page.locator('[data-testid=score-chart]');
    await poll(async () => Number(await chart.getAttribute('data-points'))).toBeGreaterThanOrEqual(
      history.points.length,
    );
    expect(Number(await chart.getAttribute('data-first-ms'))).toBeLessThan(reloadedAt);
    expect(Number(await chart.getAttribute('data-first-ms'))).toBe(history.points[0]!.at_ms);
  }, 60_000);

  it('cut the connection: "reconnecting", then the timeline resumes with no gap and no duplicate', async () => {
    await poll(() => page.locator('[data-testid=connection]').textContent()).toBe('live');
    const before = await timelineIds(page);
    proxy.cut();
    await poll(() => page.locator('[data-testid=connection]').textContent()).toBe('reconnecting…');
    await poll(() => page.locator('[data-testid=reconnecting]').isVisible()).toBe(true);
    await page.setViewportSize(PHONE);
    await page.evaluate('window.scrollTo(0, 0)');
    await shot(page, 'reconnecting-phone');
    // events the page cannot see while it is cut off
    expect((await http(server.url, 'POST', '/arena/agent/agent-3/kill', { key: KEY })).status).toBe(200);
    // a fault that cannot be applied (agent-1 is not paused); an unknown agent would be refused with 400
    expect((await http(server.url, 'POST', '/arena/agent/agent-1/resume', { key: KEY })).status).toBe(422);
    expect(
      (await http(server.url, 'POST', '/arena/agent/agent-2/pause', { key: KEY, body: { duration: '1s' } })).status,
    ).toBe(200);
    proxy.restore();
    await poll(() => page.locator('[data-testid=connection]').textContent(), { timeout: 15_000 }).toBe('live');
    await poll(async () => (await timelineIds(page)).length, { timeout: 10_000 }).toBe(before.length + 3);
    const after = await timelineIds(page);
    expect(new Set(after).size).toBe(after.length);
    expect(after[0]).toBe(1);
    expect(after).toEqual(Array.from({ length: after.length }, (_, i) => i + 1));
    expect(await page.locator('[data-testid=timeline]').textContent()).toContain('resume_agent agent-1 failed');
    await poll(() => page.locator('[data-testid=diagnostics]').textContent()).toContain('agent-1');
    expect(await horizontalOverflow(page)).toBe(0);
    await shot(page, 'resumed-phone', true);
    await page.setViewportSize(DESKTOP);
  }, 40_000);

  it('survival shows its seed; a second start is refused with 409 and the page says so', async () => {
    await page.fill('[data-testid=survival] input[name=duration]', '20s');
    await page.fill('[data-testid=survival] input[name=seed]', '4242');
    await page.click('[data-testid=survival] button[type=submit]');
    await poll(() => page.locator('[data-testid=survival-message]').textContent()).toBe(
      'Survival started with seed 4242',
    );
    await poll(() => page.locator('[data-testid=survival-seed]').textContent()).toBe('4242');
    await page.click('[data-testid=survival] button[type=submit]');
    await poll(() => page.locator('[data-testid=survival-message]').textContent()).toMatch(
      /^Already running \(409\): a survival run is already going/,
    );
    await page.click('[data-testid=survival] button:has-text("Stop")');
    await poll(() => page.locator('[data-testid=survival-report]').textContent()).toContain('seed 4242');
    await shot(page, 'survival-desktop');
  }, 30_000);

  it('tool_fault: the form asks for its mode and tool glob, and the embedded runtime applies it', async () => {
    await page.selectOption('[data-testid=inject] select[name=type]', 'tool_fault');
    await page.selectOption('[data-testid=inject] select[name=target]', 'agent-3');
    await page.selectOption('[data-testid=inject] select[name=mode]', 'corrupt');
    await page.fill('[data-testid=inject] input[name=tool]', 'look*');
    await page.fill('[data-testid=inject] input[name=duration]', '1s');
    await page.click('[data-testid=inject] button[type=submit]');
    await poll(() => page.locator('[data-testid=inject-outcome]').textContent()).toContain(
      'Injected: tool_fault agent-3 (corrupt on look*) for 1.0 s',
    );
  });

  it('an injected fault shows with its time left, counting down', async () => {
    await page.selectOption('[data-testid=inject] select[name=type]', 'network_partition');
    await page.selectOption('[data-testid=inject] select[name=target]', 'agent-2');
    await page.fill('[data-testid=inject] input[name=duration]', '20s');
    await page.click('[data-testid=inject] button[type=submit]');
    await poll(() => page.locator('[data-testid=inject-outcome]').textContent()).toContain(
      'network_partition agent-2 for 20.0 s',
    );
    const row = page.locator('[data-testid=faults] li[data-fault=network_partition]');
    const left = async () =>
      Number(/^([\d.]+) s left$/.exec((await row.locator('.left').textContent()) ?? '')?.[1] ?? NaN);
    await poll(left).toBeGreaterThan(15);
    const first = await left();
    expect(first).toBeLessThanOrEqual(20);
    await poll(left).toBeLessThan(first);
    await page.evaluate('window.scrollTo(0, 0)');
    // the web console guide's picture (docs/console.png)
    await shot(page, 'console-desktop');
  });

  it('an emergency stop: the survival report and its timeline group say it was stopped and by what', async () => {
    await page.fill('[data-testid=survival] input[name=duration]', '30s');
    await page.fill('[data-testid=survival] input[name=interval]', '300ms');
    await page.fill('[data-testid=survival] input[name=seed]', '5151');
    await page.click('[data-testid=survival] button[type=submit]');
    await poll(() => page.locator('[data-testid=survival-seed]').textContent()).toBe('5151');
    // a fault has landed, so the run has a group on the timeline
    await poll(
      async () => (await http(server.url, 'GET', '/arena/survival/status', { key: KEY })).json.actions_run ?? 0,
    ).toBeGreaterThan(0);
    // from outside the page, as `arena stop` or a pager's webhook would
    const stop = await http(server.url, 'POST', '/arena/stop', { key: KEY });
    expect(stop.status, stop.text).toBe(200);
    await poll(() => page.locator('[data-testid=survival-report]').textContent()).toContain('stopped');
    await poll(() => page.locator('[data-testid=survival-ended-why]').textContent()).toMatch(
      /^stopped \(POST \/arena\/stop\) after \d+ action\(s\)/,
    );
    // the run's group on the timeline says the same
    await poll(() =>
      page
        .locator('.timeline-group', { has: page.locator('h3', { hasText: 'seed 5151' }) })
        .locator('[data-testid=run-ended-why]')
        .textContent(),
    ).toContain('POST /arena/stop');
    await shot(page, 'survival-stopped-desktop');
  }, 30_000);

  it('the key never appears in a URL the browser requested; no CSP violation, no page error', () => {
    expect(requested.length).toBeGreaterThan(10);
    expect(requested.filter((u) => u.includes(KEY))).toEqual([]);
    expect(requested.every((u) => u.startsWith(proxy.url))).toBe(true);
    expect(pageProblems).toEqual([]);
  });
});
