/**
 * The console's static files on a real router: served without a key with
 * a strict CSP and the right cache headers, nothing else opened up, and a
 * clear 404 when the console is not built.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Router } from '../../../src/server/router.js';
import { listen, type ServerHandle } from '../../../src/server/listen.js';
import { consoleFiles } from '../../../src/server/console-files.js';

let handle: ServerHandle | undefined;
let dir: string | undefined;

afterEach(async () => {
  await handle?.close();
  handle = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

async function serve(consoleDir: string): Promise<string> {
  const router = new Router({ log: () => undefined }).withApiKey('s3cret').withConsole(consoleFiles(consoleDir));
  router.get('/arena/dashboard', () => ({ secret: true }));
  handle = await listen(router, { port: 0 });
  return handle.url;
}

function builtConsole(): string {
  dir = mkdtempSync(join(tmpdir(), 'arena-web-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(
    join(dir, 'index.html'),
    '<!doctype html><script type="module" src="./assets/console-ABC123.js"></script>',
  );
  writeFileSync(join(dir, 'assets', 'console-ABC123.js'), 'console.log(1)');
  writeFileSync(join(dir, 'assets', 'console-DEF456.css'), 'body{}');
  return dir;
}

describe('console files', () => {
  it('serves / and hashed assets without a key, with CSP and cache headers', async () => {
    const url = await serve(builtConsole());
    const index = await fetch(`${url}/`);
    expect(index.status).toBe(200);
    expect(index.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(index.headers.get('cache-control')).toBe('no-cache');
    const csp = index.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(index.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await index.text()).toContain('console-ABC123.js');

    const js = await fetch(`${url}/assets/console-ABC123.js`);
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(js.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await js.text()).toBe('console.log(1)');
    const css = await fetch(`${url}/assets/console-DEF456.css`, { method: 'HEAD' });
    expect(css.status).toBe(200);
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect(await css.text()).toBe('');
  });

  it('sends gzip to a client that accepts it, the plain file to one that does not', async () => {
    const url = await serve(builtConsole());
    const { request } = await import('node:http');
    const { gunzipSync } = await import('node:zlib');
    const get = (encoding: string) =>
      new Promise<{ headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
        request(`${url}/assets/console-ABC123.js`, { headers: { 'Accept-Encoding': encoding } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
        })
          .on('error', reject)
          .end();
      });
    const zipped = await get('gzip, deflate, br');
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers.vary).toBe('Accept-Encoding');
    expect(gunzipSync(zipped.body).toString()).toBe('console.log(1)');
    const plain = await get('identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe('console.log(1)');
  });

  it('opens nothing else: API routes still need the key, unknown or escaping asset paths are 404', async () => {
    const url = await serve(builtConsole());
    expect((await fetch(`${url}/arena/dashboard`)).status).toBe(401);
    expect((await fetch(`${url}/arena/dashboard`, { headers: { 'X-API-Key': 's3cret' } })).status).toBe(200);
    expect((await fetch(`${url}/assets/console-NOPE.js`)).status).toBe(404);
    expect((await fetch(`${url}/assets/..%2Findex.html`)).status).toBe(404);
    expect((await fetch(`${url}/assets/../../package.json`)).status).toBe(401);
    // writing to the console's paths is not a static-file request: the API answers (401 without a key)
    expect((await fetch(`${url}/`, { method: 'POST' })).status).toBe(401);
  });

  it('says how to build the console when it is not built', async () => {
    dir = mkdtempSync(join(tmpdir(), 'arena-web-empty-'));
    const url = await serve(dir);
    const res = await fetch(`${url}/`);
    expect(res.status).toBe(404);
    expect(await res.text()).toContain('npm run build');
  });
});
