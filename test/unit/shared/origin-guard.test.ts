import { readdirSync, readFileSync, statSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createOriginGuard, parseHostHeader } from '../../../src/shared/http/origin-guard.js';

const req = (headers: Record<string, string>) => ({ headers }) as unknown as IncomingMessage;

describe('origin guard (DESIGN §7: web pages cannot drive a listener)', () => {
  const guard = createOriginGuard({ host: '127.0.0.1', port: 7777 });

  it.each([['127.0.0.1:7777'], ['localhost:7777'], ['LOCALHOST:7777'], ['[::1]:7777'], ['127.0.0.2:7777']])(
    'lets Host %s through',
    (host) => {
      expect(guard(req({ host }))).toBeUndefined();
    },
  );

  it.each([
    ['evil.example:7777', 'a rebound DNS name'],
    ['evil.example', 'no port'],
    ['127.0.0.1:7778', 'another port'],
    ['127.0.0.1', 'port 80 implied'],
    ['10.0.0.5:7777', 'an address it is not bound to'],
    ['localhost:7777:1', 'malformed'],
    ['[::1', 'malformed'],
  ])('refuses Host %s (%s) with host_not_allowed', (host) => {
    expect(guard(req({ host }))).toMatchObject({ code: 'host_not_allowed' });
  });

  it.each([
    'http://evil.example',
    'http://127.0.0.1:9999',
    'http://localhost:9999',
    'https://127.0.0.1:7777',
    'null',
    'file://',
  ])('refuses Origin %s with origin_not_allowed', (origin) => {
    expect(guard(req({ host: '127.0.0.1:7777', origin }))).toMatchObject({ code: 'origin_not_allowed' });
  });

  it.each(['http://127.0.0.1:7777', 'http://localhost:7777', 'http://[::1]:7777'])(
    'lets its own origin %s through',
    (origin) => {
      expect(guard(req({ host: '127.0.0.1:7777', origin }))).toBeUndefined();
    },
  );

  it('a configured origin may call it, and names a Host it answers to (a mapped port, a reverse proxy)', () => {
    const origins = new Set(['http://localhost:3000']);
    const configured = createOriginGuard({ host: '127.0.0.1', port: 7777, allowedOrigins: () => origins });
    expect(configured(req({ host: '127.0.0.1:7777', origin: 'http://localhost:3000' }))).toBeUndefined();
    expect(configured(req({ host: 'localhost:3000' }))).toBeUndefined();
    expect(configured(req({ host: '127.0.0.1:7777', origin: 'https://localhost:3000' }))).toMatchObject({
      code: 'origin_not_allowed',
    });
  });

  it('bound to a wildcard, it answers to any IP literal but still not to a DNS name', () => {
    const wild = createOriginGuard({ host: '0.0.0.0', port: 7777 });
    expect(wild(req({ host: '192.168.1.5:7777', origin: 'http://192.168.1.5:7777' }))).toBeUndefined();
    expect(wild(req({ host: 'evil.example:7777' }))).toMatchObject({ code: 'host_not_allowed' });
  });

  it('parses Host headers', () => {
    expect(parseHostHeader('[::1]:80')).toEqual({ name: '::1', port: 80 });
    expect(parseHostHeader('Example.COM.')).toEqual({ name: 'example.com', port: 80 });
    expect(parseHostHeader(':80')).toBeUndefined();
  });
});

describe('every listener of the arena goes through the one guarded HTTP listener', () => {
  const SRC = fileURLToPath(new URL('../../../src', import.meta.url));
  const files = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? files(path) : /\.tsx?$/.test(name) ? [path] : [];
    });

  it('only shared/http/listen.ts creates an HTTP server; the raw TCP proxy is the one other listener', () => {
    const creators = files(SRC)
      .filter((path) => !path.includes(`${join(SRC, 'web')}`))
      .filter((path) =>
        /\bcreateServer\s*\(|\bcreateSecureServer\s*\(|\.listen\s*\(\s*[^)]/.test(readFileSync(path, 'utf8')),
      )
      .map((path) => path.slice(SRC.length + 1))
      .sort();
    expect(creators).toEqual(['proxies/tcp/proxy.ts', 'shared/http/listen.ts']);
    // and the TCP proxy's server is a node:net one (raw bytes, no HTTP to guard)
    expect(readFileSync(join(SRC, 'proxies/tcp/proxy.ts'), 'utf8')).toMatch(/from 'node:net'/);
  });
});
