/** Issue 11, the smaller defects: API keys, OPTIONS without a key, clients leaving mid-body, malformed HTTP. */
import { connect } from 'node:net';
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { apiKeyCheck } from '../../../../src/shared/api-key.js';
import { UsageError } from '../../../../src/shared/errors.js';
import { Router } from '../../../../src/server/router.js';
import { runServe } from '../../../../src/server/serve-command.js';
import { raw, serve } from '../helpers.js';

function rawSocket(port: number, data: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let out = '';
    socket.setEncoding('utf8');
    socket.on('data', (c: string) => (out += c));
    socket.on('close', () => resolve(out));
    socket.on('error', reject);
    socket.end(data);
  });
}

describe('server edges', () => {
  it('a blank or space-padded API key is refused (it could never match, and must not count as "a key is set")', async () => {
    for (const key of ['   ', ' s3cret', 's3cret\n'])
      expect(() => apiKeyCheck(key), JSON.stringify(key)).toThrow(UsageError);
    const io = { stdout: { write: () => true }, stderr: { write: () => true }, env: {}, signal: AbortSignal.abort() };
    await expect(runServe({ host: '0.0.0.0', port: 0, apiKey: '  ' }, io)).rejects.toMatchObject({
      code: 'invalid_api_key',
      exitCode: 2,
    });
    await expect(
      runServe({ host: '0.0.0.0', port: 0 }, { ...io, env: { ARENA_API_KEY: ' \t ' } }),
    ).rejects.toMatchObject({ code: 'invalid_api_key' });
    expect(() => new Router().withApiKey('  ')).toThrow(/blank/);
  });

  it("OPTIONS without a key is a 401 that reveals nothing; an allowed origin's preflight is still answered", async () => {
    const router = new Router({ log: () => {} }).withApiKey('s3cret').withAllowedOrigins(['http://localhost:3000']);
    router.get('/things', () => ({}));
    const s = await serve(router);
    for (const path of ['/things', '/no-such-route']) {
      const r = await raw(s.url, 'OPTIONS', path);
      expect(r.status, path).toBe(401);
      expect(r.headers.allow).toBeUndefined();
      expect(r.json()).toEqual({ error: 'missing or invalid API key', code: 'unauthorized' });
    }
    const keyed = await raw(s.url, 'OPTIONS', '/things', { headers: { 'X-API-Key': 's3cret' } });
    expect(keyed.status).toBe(204);
    expect(keyed.headers.allow).toContain('GET');
    const pre = await raw(s.url, 'OPTIONS', '/things', {
      headers: { Origin: 'http://localhost:3000', 'Access-Control-Request-Method': 'GET' },
    });
    expect(pre.status).toBe(204);
    const foreign = await raw(s.url, 'OPTIONS', '/things', {
      headers: { Origin: 'http://evil.example', 'Access-Control-Request-Method': 'GET' },
    });
    expect(foreign.status).toBe(403);
  });

  it('a client that disconnects mid-body logs nothing and the server keeps serving', async () => {
    const logs: string[] = [];
    const router = new Router({ log: (l) => logs.push(l) });
    router.post('/echo', async (ctx) => ctx.json());
    const s = await serve(router);
    await new Promise<void>((resolve) => {
      const r = request(`${s.url}/echo`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'Content-Length': 1000 },
      });
      r.on('error', () => resolve());
      r.write('{"a":');
      setTimeout(() => r.destroy(), 50);
      r.on('close', () => resolve());
    });
    await new Promise((r) => setTimeout(r, 100));
    expect(logs).toEqual([]);
    expect((await raw(s.url, 'POST', '/echo', { body: '{"a":1}' })).json()).toEqual({ a: 1 });
  });

  it("malformed HTTP gets the JSON error shape, not node's empty 400", async () => {
    const router = new Router({ log: () => {} });
    router.get('/x', () => ({}));
    const s = await serve(router);
    for (const bad of [
      'GARBAGE\r\n\r\n',
      'GET /x HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n',
      'GET /x HTTP/1.1\r\nContent-Length: abc\r\n\r\n',
    ]) {
      const out = await rawSocket(s.port, bad);
      expect(out, JSON.stringify(bad)).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
      expect(out).toContain('Content-Type: application/json');
      const body = JSON.parse(out.slice(out.indexOf('\r\n\r\n') + 4));
      expect(body).toMatchObject({ code: 'bad_request', error: expect.stringContaining('malformed HTTP request') });
    }
  });
});
