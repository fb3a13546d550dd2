/**
 * Issue 11: shutdown dropped in-flight requests without an answer. DESIGN §7:
 * new requests get 503, requests in flight are answered (a running scenario
 * with its partial report).
 */
import { readFile } from 'node:fs/promises';
import { type Agent, request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { Router } from '../../../../src/server/router.js';
import { listen, type ServerHandle } from '../../../../src/server/listen.js';
import { serveRootForTest } from './served-root.js';

const handles: ServerHandle[] = [];
afterEach(async () => {
  await Promise.all(handles.splice(0).map((h) => h.close()));
});

function post(url: string, path: string, body: string, agent?: Agent): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const r = request(
      `${url}${path}`,
      { method: 'POST', agent, headers: { 'Content-Type': 'application/json' } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    r.on('error', reject);
    r.end(body);
  });
}

describe('graceful shutdown', () => {
  it('a request in flight is told to wrap up and answered; one that cannot finish gets a 503, never a dropped connection', async () => {
    const router = new Router({ log: () => {} });
    let entered!: () => void;
    const inside = new Promise<void>((r) => (entered = r));
    router.post('/wraps-up', async (ctx) => {
      entered();
      await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve, { once: true }));
      return { partial: true };
    });
    router.post('/hangs', () => new Promise(() => undefined));
    router.post('/fails-on-abort', async (ctx) => {
      await new Promise((_, reject) =>
        ctx.signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true }),
      );
    });
    const handle = await listen(router, { port: 0, closeTimeoutMs: 300 });
    handles.push(handle);
    const wraps = post(handle.url, '/wraps-up', '{}');
    const hangs = post(handle.url, '/hangs', '{}');
    const fails = post(handle.url, '/fails-on-abort', '{}');
    await inside;
    await new Promise((r) => setTimeout(r, 50));
    await handle.close();
    expect(await wraps).toEqual({ status: 200, body: '{"partial":true}' });
    const hung = await hangs;
    expect(hung.status).toBe(503);
    expect(JSON.parse(hung.body)).toEqual({
      error: 'server shut down before this request finished',
      code: 'unavailable',
    });
    const failed = await fails;
    expect(failed.status).toBe(503);
    expect(JSON.parse(failed.body).code).toBe('unavailable');
  });

  it('a request that reaches the router once it is shutting down gets a 503 JSON answer; the one in flight is answered', async () => {
    const router = new Router({ log: () => {} });
    router.post('/slow', async (ctx) => {
      await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve, { once: true }));
      return { done: true };
    });
    router.post('/quick', () => ({ ok: true }));
    const handle = await listen(router, { port: 0, closeTimeoutMs: 2000 });
    handles.push(handle);
    const slow = post(handle.url, '/slow', '{}');
    await new Promise((r) => setTimeout(r, 50));
    // the router's own shutdown (what close() starts with), while the server still accepts connections
    const shutdown = router.shutdown();
    const late = await post(handle.url, '/quick', '{}');
    expect(late.status).toBe(503);
    expect(JSON.parse(late.body)).toEqual({ error: 'server is shutting down', code: 'unavailable' });
    expect(await slow).toEqual({ status: 200, body: '{"done":true}' });
    await shutdown;
  });

  it('a scenario run in flight when the server shuts down answers 200 with its partial report (status interrupted)', async () => {
    const { url, server } = await serveRootForTest();
    const yaml = await readFile(new URL('../../../../scenarios/leader-failover.yaml', import.meta.url), 'utf8');
    const run = post(url, '/arena/scenario/run', yaml);
    await new Promise((r) => setTimeout(r, 1500));
    await server.close('test shutdown');
    const answer = await run;
    expect(answer.status, answer.body.slice(0, 300)).toBe(200);
    const report = JSON.parse(answer.body);
    expect(JSON.stringify(report)).toContain('interrupted');
  });
});
