/**
 * A 413 the client reads (issue 39): answered while the client is still
 * sending, the rest of the body is read and dropped for a moment instead of
 * the connection being closed at once, which reset it and often lost the
 * answer. On every listener that reads a body: the API server, the protocol
 * server (`arena target serve`, the LLM and MCP control ports), the TCP
 * proxy's control port, the MCP proxy's own port and the Toxiproxy API.
 */
import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { startTcpFaultProxy } from '../../../src/proxies/tcp/control.js';
import { startLlmControl, startLlmProxy } from '../../../src/proxies/llm/index.js';
import { startHttpMcpProxy } from '../../../src/proxies/mcp/index.js';
import { startToxiproxyServer } from '../../../src/proxies/toxiproxy/server.js';
import { Router } from '../../../src/server/router.js';
import { serve } from '../server/helpers.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
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
      // the MCP proxy answers as JSON-RPC: its error code instead of the arena's
      res.on('end', () => {
        const body = JSON.parse(text) as { code?: string; error?: { code: number } };
        resolve(`${res.statusCode} ${body.code ?? body.error?.code}`);
      });
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

  it("on the TCP proxy's control port", async () => {
    const tcp = await startTcpFaultProxy({
      listen: { host: '127.0.0.1', port: 0 },
      upstream: { host: '127.0.0.1', port: 9 },
      control: { port: 0 },
    });
    cleanups.push(() => tcp.close());
    for (const declared of [true, false])
      for (let i = 0; i < 5; i++)
        expect(await postTooMuch(`${tcp.control!.url}/v1/faults`, declared)).toBe('413 payload_too_large');
  }, 60_000);

  it("on the protocol server (an LLM proxy's control port, as `arena target serve` and the MCP control port)", async () => {
    const proxy = await startLlmProxy({ listen: 0, upstream: 'http://127.0.0.1:9' });
    cleanups.push(() => proxy.close());
    const control = await startLlmControl({ proxy, listen: 0 });
    cleanups.push(() => control.close());
    for (const declared of [true, false])
      for (let i = 0; i < 5; i++)
        expect(await postTooMuch(`${control.server!.url}/v1/faults`, declared)).toBe('413 payload_too_large');
  }, 60_000);

  it("on the MCP proxy's own port (a new session's initialize)", async () => {
    const proxy = await startHttpMcpProxy({ upstream: 'http://127.0.0.1:9/mcp', port: 0, bodyLimit: 1024 * 1024 });
    cleanups.push(() => proxy.close());
    for (const declared of [true, false])
      for (let i = 0; i < 5; i++) expect(await postTooMuch(proxy.url, declared)).toBe('413 -32700');
  }, 60_000);

  it('on the Toxiproxy API', async () => {
    const api = await startToxiproxyServer({ port: 0, seed: 3 });
    cleanups.push(() => api.close());
    for (const declared of [true, false])
      for (let i = 0; i < 5; i++) expect(await postTooMuch(`${api.url}/proxies`, declared)).toMatch(/^413 /);
  }, 60_000);
});
