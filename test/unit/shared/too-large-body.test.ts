/**
 * A 413 the client reads (issue 39): answered while the client is still
 * sending, the rest of the body is read and dropped for a moment instead of
 * the connection being closed at once, which reset it and often lost the
 * answer. On the API server and on a control port (one HTTP stack).
 */
import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { startTcpFaultProxy, type TcpFaultProxy } from '../../../src/proxies/tcp/control.js';
import { Router } from '../../../src/server/router.js';
import { serve } from '../server/helpers.js';

let tcp: TcpFaultProxy | undefined;
afterEach(async () => {
  await tcp?.close();
  tcp = undefined;
});

const TOTAL = 8 * 1024 * 1024;

/**
 * POSTs 8 MiB, declared up front (refused before a byte is read) or chunked
 * (the limit is found while it streams in); what the client read.
 */
function postTooMuch(url: string, declared: boolean): Promise<string> {
  const { hostname, port, pathname } = new URL(url);
  const headers = declared ? { 'content-length': TOTAL } : {};
  return new Promise<string>((resolve) => {
    const r = request({ host: hostname, port: Number(port), method: 'POST', path: pathname, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve(`${res.statusCode} ${JSON.parse(text).code}`));
      res.on('error', (err) => resolve(String(err)));
    });
    r.on('error', (err) => resolve(String(err)));
    const chunk = Buffer.alloc(256 * 1024, 'x');
    let sent = 0;
    const pump = () => {
      while (sent < TOTAL) {
        sent += chunk.length;
        if (!r.write(chunk)) return void r.once('drain', pump);
      }
      r.end();
    };
    pump();
  });
}

describe('a body over the limit gets a 413 the client reads', () => {
  it('on the API server', async () => {
    const router = new Router({ log: () => {} });
    router.post('/echo', async (ctx) => ({ body: await ctx.json() }));
    const s = await serve(router);
    for (const declared of [true, false])
      for (let i = 0; i < 5; i++) expect(await postTooMuch(`${s.url}/echo`, declared)).toBe('413 payload_too_large');
  }, 60_000);

  it('on a control port', async () => {
    tcp = await startTcpFaultProxy({
      listen: { host: '127.0.0.1', port: 0 },
      upstream: { host: '127.0.0.1', port: 9 },
      control: { port: 0 },
    });
    for (const declared of [true, false])
      for (let i = 0; i < 5; i++)
        expect(await postTooMuch(`${tcp.control!.url}/v1/faults`, declared)).toBe('413 payload_too_large');
  }, 60_000);
});
