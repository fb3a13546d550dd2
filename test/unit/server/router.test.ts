import { describe, expect, it } from 'vitest';
import { Router } from '../../../src/server/router.js';
import { ConflictError, NotFoundError } from '../../../src/shared/errors.js';
import { raw, serve } from './helpers.js';

function makeRouter(logs: string[] = []) {
  const router = new Router({ log: (l) => logs.push(l) });
  router.get('/things', () => ({ things: [1, 2] }));
  router.post('/things', async (ctx) => {
    ctx.send(201, { got: await ctx.json() });
  });
  router.get('/things/{id}', (ctx) => {
    if (ctx.params.id === 'missing') throw new NotFoundError('thing missing not found', { code: 'thing_not_found' });
    return { id: ctx.params.id };
  });
  router.delete('/things/{id}', () => undefined);
  router.get('/things/stats', () => ({ stats: true }));
  router.get('/boom', () => {
    throw new Error('secret internal detail');
  });
  router.get('/conflict', () => {
    throw new ConflictError('already running');
  });
  router.get('/q', (ctx) => ({ limit: ctx.query.get('limit') }));
  return router;
}

describe('Router', () => {
  it('matches static and parameter routes, static first, and decodes params', async () => {
    const s = await serve(makeRouter());
    expect((await raw(s.url, 'GET', '/things')).json()).toEqual({ things: [1, 2] });
    expect((await raw(s.url, 'GET', '/things/stats')).json()).toEqual({ stats: true });
    expect((await raw(s.url, 'GET', '/things/a%20b')).json()).toEqual({ id: 'a b' });
    expect((await raw(s.url, 'GET', '/things/x/')).json()).toEqual({ id: 'x' });
    expect((await raw(s.url, 'GET', '/q?limit=5')).json()).toEqual({ limit: '5' });
    const del = await raw(s.url, 'DELETE', '/things/x');
    expect(del.status).toBe(204);
  });

  it('answers 404 for no route, 405 with Allow for a wrong method, 400 for a malformed escape', async () => {
    const s = await serve(makeRouter());
    const nf = await raw(s.url, 'GET', '/nope');
    expect(nf.status).toBe(404);
    expect(nf.json()).toMatchObject({ code: 'not_found' });
    const na = await raw(s.url, 'PUT', '/things/1');
    expect(na.status).toBe(405);
    expect(na.headers.allow).toBe('DELETE, GET');
    expect(na.json().code).toBe('method_not_allowed');
    const bad = await raw(s.url, 'GET', '/things/%E0%A4%A');
    expect(bad.status).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'bad_path' });
    const bad2 = await raw(s.url, 'GET', '/zzz/%zz');
    expect(bad2.status).toBe(400);
  });

  it('maps typed errors to their status and code, unknown errors to a generic 500, and keeps serving', async () => {
    const logs: string[] = [];
    const s = await serve(makeRouter(logs));
    const nf = await raw(s.url, 'GET', '/things/missing');
    expect(nf.status).toBe(404);
    expect(nf.json()).toEqual({ error: 'thing missing not found', code: 'thing_not_found' });
    expect((await raw(s.url, 'GET', '/conflict')).status).toBe(409);
    const boom = await raw(s.url, 'GET', '/boom');
    expect(boom.status).toBe(500);
    expect(boom.json()).toEqual({ error: 'internal server error', code: 'internal_error' });
    expect(boom.body).not.toContain('secret');
    expect(logs.join('\n')).toContain('secret internal detail');
    expect((await raw(s.url, 'GET', '/things')).status).toBe(200);
  });

  it('requires the API key on every route when one is set, and never logs it', async () => {
    const logs: string[] = [];
    const router = makeRouter(logs).withApiKey('s3cret-key');
    expect(router.isAuthEnabled).toBe(true);
    const s = await serve(router);
    for (const [method, path] of [
      ['GET', '/things'],
      ['POST', '/things'],
      ['GET', '/things/1'],
      ['DELETE', '/things/1'],
      ['GET', '/nope'],
      ['GET', '/boom'],
    ]) {
      const none = await raw(s.url, method!, path!);
      expect(none.status, `${method} ${path}`).toBe(401);
      expect(none.json()).toEqual({ error: 'missing or invalid API key', code: 'unauthorized' });
      const wrong = await raw(s.url, method!, path!, { headers: { 'X-API-Key': 's3cret-kez' } });
      expect(wrong.status).toBe(401);
      const short = await raw(s.url, method!, path!, { headers: { 'X-API-Key': 's' } });
      expect(short.status).toBe(401);
    }
    const ok = await raw(s.url, 'GET', '/things', { headers: { 'X-API-Key': 's3cret-key' } });
    expect(ok.status).toBe(200);
    await raw(s.url, 'GET', '/boom', { headers: { 'X-API-Key': 's3cret-key' } });
    expect(logs.join('\n')).not.toContain('s3cret-key');
  });

  it('rejects bodies: 413 over the declared limit at once, 413 while streaming, 400 for empty, bad JSON and __proto__', async () => {
    const router = new Router({ log: () => {}, bodyLimit: 1024 });
    router.post('/echo', async (ctx) => ({ body: await ctx.json() }));
    const s = await serve(router);
    const declared = await raw(s.url, 'POST', '/echo', { body: 'x'.repeat(2048) });
    expect(declared.status).toBe(413);
    expect(declared.json().code).toBe('payload_too_large');
    const chunked = await raw(s.url, 'POST', '/echo', {
      headers: { 'Transfer-Encoding': 'chunked' },
      chunks: [Buffer.from('{"a":"'), Buffer.alloc(800, 'x'), Buffer.alloc(800, 'y'), Buffer.from('"}')],
    });
    expect(chunked.status).toBe(413);
    expect((await raw(s.url, 'POST', '/echo', { body: '' })).json().code).toBe('invalid_json');
    const bad = await raw(s.url, 'POST', '/echo', { body: '{"a":' });
    expect(bad.status).toBe(400);
    expect(bad.json().error).toMatch(/not valid JSON/);
    const proto = await raw(s.url, 'POST', '/echo', { body: '{"a":{"__proto__":{"polluted":1}}}' });
    expect(proto.status).toBe(400);
    expect(proto.json().error).toContain('$.a.__proto__');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const ok = await raw(s.url, 'POST', '/echo', { body: '{"a":1}' });
    expect(ok.json()).toEqual({ body: { a: 1 } });
  });

  it('answers CORS preflights for allowed origins only and adds CORS headers to replies', async () => {
    const router = makeRouter().withAllowedOrigins(['http://dash.local']).withApiKey('k');
    const s = await serve(router);
    const pre = await raw(s.url, 'OPTIONS', '/things', {
      headers: {
        Origin: 'http://dash.local',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'x-api-key',
      },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers['access-control-allow-origin']).toBe('http://dash.local');
    expect(pre.headers['access-control-allow-methods']).toBe('GET, POST, OPTIONS');
    expect(String(pre.headers['access-control-allow-headers'])).toContain('X-API-Key');
    const denied = await raw(s.url, 'OPTIONS', '/things', {
      headers: { Origin: 'http://evil.local', 'Access-Control-Request-Method': 'GET' },
    });
    expect(denied.status).toBe(403);
    expect(denied.headers['access-control-allow-origin']).toBeUndefined();
    const get = await raw(s.url, 'GET', '/things', { headers: { Origin: 'http://dash.local', 'X-API-Key': 'k' } });
    expect(get.headers['access-control-allow-origin']).toBe('http://dash.local');
    const unauth = await raw(s.url, 'GET', '/things', { headers: { Origin: 'http://dash.local' } });
    expect(unauth.status).toBe(401);
    expect(unauth.headers['access-control-allow-origin']).toBe('http://dash.local');
    const other = await raw(s.url, 'GET', '/things', { headers: { Origin: 'http://evil.local', 'X-API-Key': 'k' } });
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('answers 503 once shutting down', async () => {
    const router = makeRouter();
    const s = await serve(router);
    await router.shutdown();
    const res = await raw(s.url, 'GET', '/things');
    expect(res.status).toBe(503);
    expect(res.json().code).toBe('unavailable');
  });

  it('refuses a route registered twice and a group mounted twice', () => {
    const router = makeRouter();
    expect(() => router.get('/things', () => 1)).toThrow(/twice/);
    const memory = {
      createSession: () => ({}) as never,
      listSessions: () => [],
      getSession: () => ({}) as never,
      deleteSession: () => {},
      addMessage: () => ({}) as never,
      messages: () => [],
    };
    router.registerMemoryEndpoints(memory);
    expect(() => router.registerMemoryEndpoints(memory)).toThrow(/twice/);
  });
});
