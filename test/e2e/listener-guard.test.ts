/**
 * DESIGN §7: web pages cannot drive any listener of the arena. Each listener
 * the CLI opens gets raw requests with a foreign Origin and a foreign Host
 * (DNS rebinding): 403 before any handler, and nothing applied. Its own
 * origin still works, so the refusals are the guard's and not a bad request.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ARENA_BIN } from '../helpers/cli.js';
import { startListening, type Listening } from '../helpers/listening.js';

const running: Listening[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((l) => l.stop()));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

interface Answer {
  status: number;
  json: any;
}

/** node:http, so Host and Origin are sent exactly as given */
function send(
  url: string,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<Answer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const r = request({ host: hostname, port: Number(port), method, path, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (text += c));
      res.on('end', () => {
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          json = text;
        }
        resolve({ status: res.statusCode ?? 0, json });
      });
    });
    r.on('error', reject);
    r.end(body);
  });
}

async function start(args: string[], pattern: RegExp, env: Record<string, string> = {}): Promise<Listening> {
  const listening = await startListening('node', [ARENA_BIN, ...args], { pattern, env });
  running.push(listening);
  return listening;
}

interface Listener {
  name: string;
  args: string[];
  pattern: RegExp;
  env?: Record<string, string>;
  /** headers every request needs (a key) */
  auth?: Record<string, string>;
  /** a request that applies a fault */
  fault: (url: string) => Promise<{ path: string; body?: string }>;
  /** how many faults are applied now */
  applied: (url: string, auth: Record<string, string>) => Promise<number>;
}

const controlFaults = async (url: string) =>
  ((await send(url, 'GET', '/v1/faults', { host: new URL(url).host })).json.faults as unknown[]).length;

const LISTENERS: Listener[] = [
  {
    name: 'arena serve (with an API key)',
    args: ['serve', '--port', '0'],
    pattern: /serving on (http:\/\/127\.0\.0\.1:\d+)/,
    env: { ARENA_API_KEY: 'k3y' },
    auth: { 'x-api-key': 'k3y' },
    fault: async () => ({ path: '/arena/leader/kill' }),
    applied: async (url, auth) =>
      (await send(url, 'GET', '/arena/history', { ...auth, host: new URL(url).host })).json.results.length,
  },
  {
    name: 'arena target serve',
    args: ['target', 'serve', '--port', '0', '--seed', '1'],
    pattern: /served on (http:\/\/127\.0\.0\.1:\d+)/,
    fault: async (url) => {
      const target = await send(url, 'GET', '/v1/target', { host: new URL(url).host });
      const agent = target.json.agents[0].id as string;
      return {
        path: '/v1/faults',
        body: JSON.stringify({ id: 'f1', type: 'network_partition', target_id: agent, lease_ms: 60_000 }),
      };
    },
    applied: controlFaults,
  },
  {
    name: 'arena proxy tcp --control',
    args: ['proxy', 'tcp', '--listen', '0', '--upstream', '127.0.0.1:9', '--control', '0'],
    pattern: /control (http:\/\/127\.0\.0\.1:\d+)/,
    fault: async () => ({
      path: '/v1/faults',
      body: JSON.stringify({ id: 'f1', type: 'blackhole', lease_ms: 600_000 }),
    }),
    applied: controlFaults,
  },
  {
    name: 'arena proxy llm --control',
    args: ['proxy', 'llm', '--upstream', 'http://127.0.0.1:9', '--listen', '0', '--control', '0'],
    pattern: /control on (http:\/\/127\.0\.0\.1:\d+)/,
    fault: async () => ({
      path: '/v1/faults',
      body: JSON.stringify({ id: 'f1', type: 'llm_failure', params: { error_type: 'rate_limit' }, lease_ms: 60_000 }),
    }),
    applied: controlFaults,
  },
  {
    name: 'arena proxy mcp --control',
    args: ['proxy', 'mcp', '--upstream', 'http://127.0.0.1:9/mcp', '--listen', '0', '--control', '0'],
    pattern: /control on (http:\/\/127\.0\.0\.1:\d+)/,
    fault: async () => ({
      path: '/v1/faults',
      body: JSON.stringify({ id: 'f1', type: 'tool_error', lease_ms: 60_000 }),
    }),
    applied: controlFaults,
  },
];

describe('every listener refuses foreign origins and foreign Host names (e2e)', () => {
  it.each(LISTENERS)('$name: 403 before any handler, nothing applied; its own origin works', async (listener) => {
    const { url } = await start(listener.args, listener.pattern, listener.env);
    const auth = listener.auth ?? {};
    const port = new URL(url).port;
    const { path, body } = await listener.fault(url);
    const refused: Array<[Record<string, string>, string]> = [
      [{ origin: 'http://evil.example', host: `127.0.0.1:${port}` }, 'origin_not_allowed'],
      // another loopback port is another origin: a page served there is not this listener
      [{ origin: 'http://127.0.0.1:1', host: `127.0.0.1:${port}` }, 'origin_not_allowed'],
      [{ origin: 'null', host: `127.0.0.1:${port}` }, 'origin_not_allowed'],
      // DNS rebinding: the page's own name, resolved to 127.0.0.1, with no Origin (a same-origin request)
      [{ host: `evil.example:${port}` }, 'host_not_allowed'],
      [{ host: `rebind.evil.example:${port}`, origin: `http://rebind.evil.example:${port}` }, 'host_not_allowed'],
    ];
    for (const [headers, code] of refused) {
      const answer = await send(url, 'POST', path, { ...auth, ...headers, 'content-type': 'text/plain' }, body);
      expect(answer.status, JSON.stringify(headers)).toBe(403);
      expect(answer.json).toMatchObject({ code, error: expect.any(String) });
      // a read is refused the same way: a rebound page must not read the state either
      expect((await send(url, 'GET', '/v1/faults', { ...auth, ...headers })).status).toBe(403);
    }
    expect(await listener.applied(url, auth)).toBe(0);

    const own = await send(
      url,
      'POST',
      path,
      { ...auth, origin: `http://localhost:${port}`, host: `localhost:${port}`, 'content-type': 'application/json' },
      body,
    );
    expect(own.status, JSON.stringify(own.json)).toBeLessThan(300);
    expect(await listener.applied(url, auth)).toBe(1);
  });
});

describe('control port tokens (e2e)', () => {
  const blackhole = JSON.stringify({ id: 'f1', type: 'blackhole', lease_ms: 60_000 });
  const rateLimit = JSON.stringify({
    id: 'f1',
    type: 'llm_failure',
    params: { error_type: 'rate_limit' },
    lease_ms: 60_000,
  });

  async function expectTokenEnforced(url: string, body: string) {
    const host = new URL(url).host;
    for (const authorization of [undefined, 'Bearer wrong', 'Basic czNjcmV0']) {
      const headers: Record<string, string> = { host, ...(authorization ? { authorization } : {}) };
      const answer = await send(url, 'POST', '/v1/faults', headers, body);
      expect(answer.status, String(authorization)).toBe(401);
      expect(answer.json.code).toBe('unauthorized');
    }
    expect((await send(url, 'GET', '/v1/faults', { host, authorization: 'Bearer s3cret' })).json.faults).toEqual([]);
    const ok = await send(url, 'POST', '/v1/faults', { host, authorization: 'Bearer s3cret' }, body);
    expect(ok.status).toBe(201);
  }

  it('arena proxy tcp takes its token from ARENA_PROXY_TOKEN: missing or wrong → 401, right → 201', async () => {
    const proxy = await start(
      ['proxy', 'tcp', '--listen', '0', '--upstream', '127.0.0.1:9', '--control', '0'],
      /control (http:\/\/127\.0\.0\.1:\d+)/,
      { ARENA_PROXY_TOKEN: 's3cret' },
    );
    expect(proxy.output()).toContain('auth: on');
    await expectTokenEnforced(proxy.url, blackhole);
  });

  it('arena proxy llm takes its token from --token-file (kept off the command line)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'arena-token-'));
    dirs.push(dir);
    writeFileSync(join(dir, 'token'), 's3cret\n');
    const proxy = await start(
      [
        'proxy',
        'llm',
        '--upstream',
        'http://127.0.0.1:9',
        '--listen',
        '0',
        '--control',
        '0',
        '--token-file',
        join(dir, 'token'),
      ],
      /control on (http:\/\/127\.0\.0\.1:\d+)/,
    );
    await expectTokenEnforced(proxy.url, rateLimit);
  });
});
