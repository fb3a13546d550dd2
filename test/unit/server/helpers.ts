import { request } from 'node:http';
import { afterEach } from 'vitest';
import { listen, type ServerHandle } from '../../../src/server/listen.js';
import type { Router } from '../../../src/server/router.js';

const open: ServerHandle[] = [];

afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

export async function serve(router: Router): Promise<ServerHandle> {
  const handle = await listen(router, { host: '127.0.0.1', port: 0, closeTimeoutMs: 500 });
  open.push(handle);
  return handle;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  json: () => any;
}

/** a raw request (fetch normalises too much for path and header tests) */
export function raw(
  base: string,
  method: string,
  path: string,
  options: { headers?: Record<string, string | number>; body?: string | Buffer; chunks?: Buffer[] } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const r = request(`${base}${path}`, { method, headers: options.headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (body += c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, json: () => JSON.parse(body) }),
      );
    });
    r.on('error', reject);
    if (options.chunks) {
      for (const c of options.chunks) r.write(c);
      r.end();
    } else r.end(options.body);
  });
}
