/** `arena serve` end to end: SSE framing, done, resume, disconnects, graceful shutdown. */
import { afterEach, describe, expect, it } from 'vitest';
import { frameJson, openSse } from '../helpers/sse.js';
import { http, startServe, type ServeProcess } from './serve-helpers.js';

let s: ServeProcess | undefined;
afterEach(async () => {
  await s?.stop();
  s = undefined;
});

describe('arena serve: event streams', () => {
  it('POST /api/v1/stream sends event/id/data frames carrying {event, data}, the last one done', async () => {
    s = await startServe();
    await http(s.url, 'POST', '/api/v1/retrieval/documents', {
      body: { text: 'The supervisor restarts killed agents.' },
    });
    const conn = await openSse({
      url: `${s.url}/api/v1/stream`,
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ query: 'who restarts agents?', session_id: 'e2e', options: { top_k: 2 } }),
    });
    expect(conn.status).toBe(200);
    expect(conn.headers['content-type']).toContain('text/event-stream');
    expect(conn.headers['cache-control']).toBe('no-cache, no-transform');
    await conn.ended;
    expect(conn.text().startsWith('retry: ')).toBe(true);
    const frames = conn.frames.filter((f) => f.event);
    expect(frames.map((f) => f.event)).toEqual(['session', 'retrieval', 'answer', 'memory', 'done']);
    for (const [i, f] of frames.entries()) {
      expect(f.raw).toMatch(/^event: [a-z]+\nid: \d+\ndata: .*\n\n$/);
      expect(Number(f.id)).toBe(i + 1);
      expect(frameJson<{ event: string }>(f).event).toBe(f.event);
    }
    expect(frameJson<{ data: { hits: unknown[] } }>(frames[1]!).data.hits).toHaveLength(1);
    // the session_id reached the processor: the exchange is in that session
    const messages = await http(s.url, 'GET', '/api/v1/memory/sessions/e2e/messages');
    expect(messages.json.messages).toHaveLength(2);
    const long = await http(s.url, 'POST', '/api/v1/stream', { body: { query: 'q'.repeat(8 * 1024 + 1) } });
    expect(long.status).toBe(400);
    expect(long.json.code).toBe('query_too_long');
    // a bad option is refused like a bad query (issue 11): a 400 naming it, before any stream opens
    const bad = await http(s.url, 'POST', '/api/v1/stream', { body: { query: 'x', options: { top_k: 'many' } } });
    expect(bad.status).toBe(400);
    expect(bad.json.error).toContain('options.top_k');
  });

  it('GET /arena/stream: ids from the event store, resume with Last-Event-ID, disconnects, final event on shutdown', async () => {
    s = await startServe(['--api-key', 'k']);
    const key = { 'X-API-Key': 'k' };
    const first = await openSse({ url: `${s.url}/arena/stream`, headers: key });
    await first.waitFor((f) => f.event === 'ready');
    await http(s.url, 'POST', '/arena/agent/agent-2/kill', { key: 'k' });
    // a fault that cannot be applied (agent-1 is not paused) is recorded as failed
    await http(s.url, 'POST', '/arena/agent/agent-1/resume', { key: 'k' });
    await http(s.url, 'POST', '/arena/agent/agent-3/pause', { key: 'k', body: { duration: '100ms' } });
    await first.waitFor((f) => f.id === '3');
    expect(first.frames.filter((f) => f.id).map((f) => `${f.id} ${f.event}`)).toEqual([
      '1 arena.action.executed',
      '2 arena.action.failed',
      '3 arena.action.executed',
    ]);
    // the client goes away mid-stream; the server keeps serving others
    first.close();
    await http(s.url, 'POST', '/arena/agent/agent-1/kill', { key: 'k' });
    const resumed = await openSse({ url: `${s.url}/api/v1/arena/stream`, headers: { ...key, 'Last-Event-ID': '2' } });
    await resumed.waitFor((f) => f.id === '4');
    expect(resumed.frames.filter((f) => f.id).map((f) => f.id)).toEqual(['3', '4']);
    const ahead = await openSse({ url: `${s.url}/arena/stream`, headers: { ...key, 'Last-Event-ID': '500' } });
    expect(frameJson(await ahead.waitFor((f) => f.event === 'reset'))).toMatchObject({
      reason: 'unknown_last_event_id',
      current_id: 4,
    });
    // many clients drop at once
    const drops = await Promise.all(
      Array.from({ length: 20 }, () => openSse({ url: `${s!.url}/arena/stream`, headers: key })),
    );
    await Promise.all(drops.map((d) => d.waitFor((f) => f.event === 'ready')));
    for (const d of drops) d.close();
    expect((await http(s.url, 'GET', '/arena/stats', { key: 'k' })).json.total).toBe(4);

    // the dashboard: one snapshot, and a live stream of them
    const snap = await http(s.url, 'GET', '/arena/dashboard', { key: 'k' });
    expect(snap.json.totals.total).toBe(4);
    expect(snap.json.agents).toHaveLength(5);
    const dash = await openSse({ url: `${s.url}/api/v1/arena/dashboard/stream?interval_ms=100`, headers: key });
    await dash.waitFor((f) => f.event === 'snapshot' && f.id === '3');
    expect(frameJson<{ totals: { total: number } }>(dash.frames.find((f) => f.id === '1')!).totals.total).toBe(4);
    dash.close();
    expect((await http(s.url, 'GET', '/arena/dashboard/stream?interval_ms=5', { key: 'k' })).status).toBe(400);

    // a fault still active at shutdown is reverted; open streams get a final event
    // (kept short: tasks already sleeping on a slowed agent finish their delay before the process can exit)
    await http(s.url, 'POST', '/arena/agent/agent-3/slow', { key: 'k', body: { duration: '2s' } });
    const result = await s.stop();
    await resumed.ended;
    const last = resumed.frames.at(-1)!;
    expect(last.event).toBe('shutdown');
    expect(frameJson(last)).toEqual({ reason: 'server is shutting down' });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toContain('reverting active faults');
    expect(result.stdout).toContain('arena: stopped');
    s = undefined;
  });
});
