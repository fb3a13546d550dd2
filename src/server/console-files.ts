/**
 * The web console's static files (DESIGN §11): `/` (index.html) and its
 * hashed assets under `/assets/`, the only paths served without an API key.
 * They hold no data, so nothing leaks; the page asks for the key itself.
 * Every answer carries a strict Content-Security-Policy (nothing inline,
 * nothing from another host); hashed assets are immutable, index.html is
 * revalidated so a new build is picked up at once.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** `dist/web` next to `dist/server`, where scripts/build-web.mjs puts the bundle */
export const DEFAULT_CONSOLE_DIR = fileURLToPath(new URL('../web/', import.meta.url));

export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.map': 'application/json; charset=utf-8',
};

interface ConsoleFile {
  body: Buffer;
  /** compressed once at load; sent to clients that accept gzip */
  gzipped: Buffer;
  type: string;
  cacheControl: string;
}

/** Answers a console path and returns true, or returns false for any other path (the API's). */
export type ConsoleFiles = (req: IncomingMessage, res: ServerResponse, path: string) => boolean;

/**
 * Reads the built console once, on the first request (a server without a
 * built console still serves the API; `/` then says how to build it).
 */
export function consoleFiles(dir: string = DEFAULT_CONSOLE_DIR): ConsoleFiles {
  let files: Map<string, ConsoleFile> | undefined;
  const load = (): Map<string, ConsoleFile> => {
    const map = new Map<string, ConsoleFile>();
    try {
      const file = (body: Buffer, type: string, cacheControl: string): ConsoleFile => ({
        body,
        gzipped: gzipSync(body, { level: 9 }),
        type,
        cacheControl,
      });
      map.set('/', file(readFileSync(join(dir, 'index.html')), TYPES['.html']!, 'no-cache'));
      const assets = join(dir, 'assets');
      for (const name of readdirSync(assets)) {
        const full = join(assets, name);
        if (!statSync(full).isFile()) continue;
        const ext = name.slice(name.lastIndexOf('.'));
        // names carry a content hash (console-3F2A9C.js), so a cached copy never goes stale
        map.set(
          `/assets/${name}`,
          file(readFileSync(full), TYPES[ext] ?? 'application/octet-stream', 'public, max-age=31536000, immutable'),
        );
      }
    } catch {
      // not built: only `/` answers, with a hint
    }
    return map;
  };
  return (req, res, path) => {
    if (path !== '/' && path !== '/index.html' && !path.startsWith('/assets/')) return false;
    const method = req.method ?? 'GET';
    if (method !== 'GET' && method !== 'HEAD') return false;
    files ??= load();
    const file = files.get(path === '/index.html' ? '/' : path);
    const security = {
      'Content-Security-Policy': CONSOLE_CSP,
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
      'X-Frame-Options': 'DENY',
    };
    if (!file) {
      const text =
        path === '/' || path === '/index.html'
          ? 'the web console is not built: run `npm run build`\n'
          : `no console asset ${path}\n`;
      res.writeHead(404, {
        ...security,
        'Content-Type': 'text/plain; charset=utf-8',
        'Content-Length': Buffer.byteLength(text),
        'Cache-Control': 'no-cache',
      });
      res.end(method === 'HEAD' ? undefined : text);
      return true;
    }
    const isGzip = /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
    const body = isGzip ? file.gzipped : file.body;
    res.writeHead(200, {
      ...security,
      'Content-Type': file.type,
      'Content-Length': body.length,
      'Cache-Control': file.cacheControl,
      Vary: 'Accept-Encoding',
      ...(isGzip ? { 'Content-Encoding': 'gzip' } : {}),
    });
    res.end(method === 'HEAD' ? undefined : body);
    return true;
  };
}
