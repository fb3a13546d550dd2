/**
 * DESIGN §7 in a real Chromium: a page on another origin (another loopback
 * port) tries every write a browser lets it make without CORS: a fetch POST
 * (preflighted), a no-cors POST and a form POST, against a keyless
 * `arena serve` and a proxy's control port. And a page under a rebound DNS
 * name (Chromium's resolver maps it to 127.0.0.1) tries a same-origin POST.
 * Nothing may be applied.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEADLESS_ARGS, launchChromium } from '../helpers/chromium.js';
import { ARENA_BIN } from '../helpers/cli.js';
import { startListening, type Listening } from '../helpers/listening.js';
import { http, startServe, type ServeProcess } from './serve-helpers.js';

let serve: ServeProcess;
let tcp: Listening;
let attacker: Server;
let attackerUrl: string;
let context: BrowserContext;
let profile: string;

const BLACKHOLE = JSON.stringify({ id: 'web', type: 'blackhole', lease_ms: 600_000 });

beforeAll(async () => {
  serve = await startServe();
  tcp = await startListening(
    'node',
    [ARENA_BIN, 'proxy', 'tcp', '--listen', '0', '--upstream', '127.0.0.1:9', '--control', '0'],
    { pattern: /control (http:\/\/127\.0\.0\.1:\d+)/ },
  );
  attacker = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<!doctype html><title>another origin</title><iframe name="sink"></iframe>');
  });
  await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
  attackerUrl = `http://127.0.0.1:${(attacker.address() as AddressInfo).port}`;
  profile = mkdtempSync(join(tmpdir(), 'arena-chromium-guard-'));
  context = await launchChromium(profile, {
    headless: true,
    args: [
      ...HEADLESS_ARGS,
      // DNS rebinding, the end state: a name the page controls now resolves to 127.0.0.1
      '--host-resolver-rules=MAP rebind.test 127.0.0.1',
    ],
  });
}, 60_000);

afterAll(async () => {
  await context?.close();
  await new Promise<void>((resolve) => (attacker ? attacker.close(() => resolve()) : resolve()));
  await tcp?.stop();
  await serve?.stop();
  if (profile) rmSync(profile, { recursive: true, force: true });
}, 30_000);

/** Runs in the page: every write it can attempt on `url`; returns what the page could see of each. */
async function attack(page: import('playwright-core').Page, url: string, body: string): Promise<string[]> {
  return page.evaluate(
    async ({ url, body }) => {
      const seen: string[] = [];
      const attempt = async (name: string, init: RequestInit) => {
        try {
          const r = await fetch(url, init);
          seen.push(`${name}: ${r.type} ${r.status}`);
        } catch (err) {
          seen.push(`${name}: ${String(err)}`);
        }
      };
      await attempt('cors', { method: 'POST', body, headers: { 'content-type': 'application/json' } });
      await attempt('no-cors', { method: 'POST', body, mode: 'no-cors' });
      await attempt('no-cors-text', {
        method: 'POST',
        body,
        mode: 'no-cors',
        headers: { 'content-type': 'text/plain' },
      });
      // a form with no fields posts an empty body: what a route without a body takes
      // the test's types know no DOM; this runs in the page, where it exists
      const document = (globalThis as any).document;
      await new Promise<void>((resolve) => {
        const frame = document.querySelector('iframe[name=sink]');
        frame.addEventListener('load', () => resolve(), { once: true });
        const form = document.createElement('form');
        form.method = 'POST';
        form.action = url;
        form.target = 'sink';
        form.enctype = 'text/plain';
        document.body.appendChild(form);
        form.submit();
        setTimeout(resolve, 10_000);
      });
      seen.push('form: submitted');
      return seen;
    },
    { url, body },
  );
}

describe('a web page on another origin cannot drive the arena (real Chromium)', () => {
  it('arena serve without a key: kill_leader and network_partition from another origin apply nothing', async () => {
    const page = await context.newPage();
    await page.goto(attackerUrl);
    const seen = [
      ...(await attack(page, `${serve.url}/arena/leader/kill`, '')),
      ...(await attack(page, `${serve.url}/arena/agent/agent-1/partition`, '')),
      ...(await attack(page, `${serve.url}/arena/actions`, JSON.stringify({ type: 'kill_leader' }))),
    ];
    expect(seen).toHaveLength(12);
    // what the page could read: nothing (opaque or failed), never a 2xx
    for (const line of seen) expect(line).not.toMatch(/: (basic|cors) 2\d\d/);
    const history = await http(serve.url, 'GET', '/arena/history');
    expect(history.json.results).toEqual([]);
    await page.close();
  }, 60_000);

  it("a proxy's control port: a 10-minute blackhole from another origin applies nothing", async () => {
    const page = await context.newPage();
    await page.goto(attackerUrl);
    const seen = await attack(page, `${tcp.url}/v1/faults`, BLACKHOLE);
    expect(seen).toHaveLength(4);
    const faults = (await (await fetch(`${tcp.url}/v1/faults`)).json()) as { faults: unknown[] };
    expect(faults.faults).toEqual([]);
    await page.close();
  }, 60_000);

  it('DNS rebinding: a page under its own name, now resolving to 127.0.0.1, is refused same-origin too', async () => {
    const page = await context.newPage();
    const servePort = new URL(serve.url).port;
    const tcpPort = new URL(tcp.url).port;
    const landing = await page.goto(`http://rebind.test:${servePort}/`);
    expect(landing?.status()).toBe(403);
    const statuses = await page.evaluate(async () => {
      const r = await fetch('/arena/leader/kill', { method: 'POST' });
      return r.status;
    });
    expect(statuses).toBe(403);
    await page.goto(`http://rebind.test:${tcpPort}/v1/faults`);
    const proxied = await page.evaluate(
      async (body) => (await fetch('/v1/faults', { method: 'POST', body })).status,
      BLACKHOLE,
    );
    expect(proxied).toBe(403);
    expect((await http(serve.url, 'GET', '/arena/history')).json.results).toEqual([]);
    expect(((await (await fetch(`${tcp.url}/v1/faults`)).json()) as { faults: unknown[] }).faults).toEqual([]);
    await page.close();
  }, 60_000);
});
