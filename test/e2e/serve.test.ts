/**
 * `arena serve` end to end: every route with and without the key, error
 * statuses, and the refusal to bind a public address without a key.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { arena } from '../helpers/cli.js';
import { http, startServe, type ServeProcess } from './serve-helpers.js';

const KEY = 'e2e-secret-key';

/** every route the server has (method, path with sample ids) */
const ROUTES: Array<[string, string]> = [
  ['POST', '/api/v1/stream'],
  ['GET', '/api/v1/agents'],
  ['POST', '/api/v1/agents'],
  ['GET', '/api/v1/agents/agent-1'],
  ['DELETE', '/api/v1/agents/x'],
  ['POST', '/api/v1/agents/x/chat'],
  ['POST', '/api/v1/memory/sessions'],
  ['GET', '/api/v1/memory/sessions'],
  ['GET', '/api/v1/memory/sessions/s'],
  ['DELETE', '/api/v1/memory/sessions/s'],
  ['POST', '/api/v1/memory/sessions/s/messages'],
  ['GET', '/api/v1/memory/sessions/s/messages'],
  ['POST', '/api/v1/retrieval/documents'],
  ['GET', '/api/v1/retrieval/documents'],
  ['GET', '/api/v1/retrieval/documents/d'],
  ['DELETE', '/api/v1/retrieval/documents/d'],
  ['POST', '/api/v1/retrieval/search'],
  ['GET', '/api/v1/eval/evaluators'],
  ['POST', '/api/v1/eval/evaluate'],
  ['POST', '/api/v1/runtime/start'],
  ['POST', '/api/v1/runtime/stop'],
  ['GET', '/api/v1/runtime/stats'],
  ['GET', '/api/v1/runtime/agents/agent-1'],
  ['GET', '/api/v1/runtime/strategy'],
  ['POST', '/api/v1/runtime/strategy'],
  ['GET', '/api/v1/runtime/mcp/tools'],
  ['POST', '/api/v1/runtime/mcp/tools/echo/call'],
  ['GET', '/api/v1/workflows'],
  ['POST', '/api/v1/workflows'],
  ['GET', '/api/v1/workflows/answer-question'],
  ['POST', '/api/v1/workflows/answer-question/execute'],
  ['GET', '/api/v1/workflows/answer-question/executions'],
  ['POST', '/api/v1/llm/chat'],
  ['POST', '/api/v1/llm/generate'],
  ['GET', '/api/v1/llm/stats'],
  ['GET', '/api/v1/flight/timeline'],
  ['GET', '/api/v1/flight/records/x'],
  ['GET', '/api/v1/flight/diagnostics'],
  ['POST', '/api/v1/flight/replay'],
  ...['evolution', 'runtime-evolution'].flatMap(
    (g): Array<[string, string]> => [
      ['GET', `/api/v1/${g}/status`],
      ['GET', `/api/v1/${g}/runs`],
      ['POST', `/api/v1/${g}/runs`],
      ['GET', `/api/v1/${g}/runs/x`],
    ],
  ),
  ['GET', '/nope'],
];
const ARENA_ROUTES: Array<[string, string]> = [
  ['POST', '/leader/kill'],
  ['POST', '/orchestrator/kill'],
  ...[
    'kill',
    'pause',
    'resume',
    'partition',
    'memory-corrupt',
    'mcp-disconnect',
    'slow',
    'tool-timeout',
    'llm-failure',
  ].map((v): [string, string] => ['POST', `/agent/agent-2/${v}`]),
  ['POST', '/node/plan/remove'],
  ['POST', '/edge/remove'],
  ['POST', '/actions'],
  ['GET', '/history'],
  ['GET', '/stats'],
  ['GET', '/metrics'],
  ['GET', '/score'],
  ['POST', '/scenario/run'],
  ['POST', '/scenario/validate'],
  ['POST', '/survival'],
  ['GET', '/survival/status'],
  ['POST', '/survival/stop'],
  ['GET', '/survival/report'],
  ['GET', '/flight/timeline'],
  ['GET', '/flight/diagnostics'],
  ['GET', '/dashboard'],
  ['GET', '/dashboard/stream'],
  ['GET', '/stream'],
];
for (const [m, p] of ARENA_ROUTES) ROUTES.push([m, `/arena${p}`], [m, `/api/v1/arena${p}`]);

let server: ServeProcess;
beforeAll(async () => {
  server = await startServe(['--api-key', KEY]);
});
afterAll(async () => {
  await server?.stop();
});

describe('arena serve (auth and errors)', () => {
  it('prints the URL and that auth is on', () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.stdout()).toContain('auth: on');
    expect(server.stdout()).not.toContain(KEY);
  });

  it('answers 401 on every route without the key or with a wrong one', async () => {
    for (const [method, path] of ROUTES) {
      const none = await http(server.url, method, path, { body: method === 'GET' ? undefined : '{}' });
      expect(none.status, `${method} ${path}`).toBe(401);
      expect(none.json).toEqual({ error: 'missing or invalid API key', code: 'unauthorized' });
      const wrong = await http(server.url, method, path, { key: 'wrong', body: method === 'GET' ? undefined : '{}' });
      expect(wrong.status, `${method} ${path} (wrong key)`).toBe(401);
    }
  });

  it('answers 404, 405 with Allow, 400 for bad JSON and bad escapes, 413 for oversized bodies', async () => {
    const nf = await http(server.url, 'GET', '/api/v1/nothing', { key: KEY });
    expect(nf.status).toBe(404);
    expect(nf.json.code).toBe('not_found');
    const na = await http(server.url, 'DELETE', '/api/v1/agents', { key: KEY });
    expect(na.status).toBe(405);
    expect(na.headers.get('allow')).toBe('GET, POST');
    const bad = await http(server.url, 'POST', '/api/v1/retrieval/search', { key: KEY, body: '{"query": ' });
    expect(bad.status).toBe(400);
    expect(bad.json.code).toBe('invalid_json');
    const empty = await http(server.url, 'POST', '/api/v1/eval/evaluate', { key: KEY, body: '' });
    expect(empty.status).toBe(400);
    const big = await http(server.url, 'POST', '/api/v1/retrieval/documents', {
      key: KEY,
      body: JSON.stringify({ text: 'x'.repeat(1024 * 1024 + 10) }),
    });
    expect(big.status).toBe(413);
    expect(big.json.code).toBe('payload_too_large');
    const esc = await http(server.url, 'GET', '/api/v1/agents/%E0%A4%A', { key: KEY });
    expect(esc.status).toBe(400);
    // and it keeps serving
    expect((await http(server.url, 'GET', '/api/v1/agents', { key: KEY })).status).toBe(200);
  });
});

describe('arena serve (refusals)', () => {
  it('refuses a non-loopback host without a key (exit 2) and a bad port', async () => {
    const r = await arena(['serve', '--host', '0.0.0.0', '--port', '0']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('refusing to bind 0.0.0.0 without an API key');
    const p = await arena(['serve', '--port', '70000']);
    expect(p.exitCode).toBe(2);
    expect(p.stderr).toContain('--port must be an integer from 0 to 65535');
    const st = await arena(['serve', '--port', '0', '--strategy', 'no-such-strategy.yaml']);
    expect(st.exitCode).toBe(2);
    expect(st.stderr).toContain('no-such-strategy.yaml');
  });
});
