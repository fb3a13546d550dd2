import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  connectorFor,
  createInProcessMcpServer,
  createMcpSession,
  type McpSession,
} from '../../../../src/runtime/mcp/index.js';

/** a real streamable-HTTP MCP server (stateless: one SDK server per request) on loopback */
let http: Server;
let url: string;
let up = true;
let session: McpSession | undefined;
const authSeen: Array<string | undefined> = [];

beforeEach(async () => {
  up = true;
  http = createServer((req, res) => {
    if (!up) {
      res.writeHead(503).end();
      return;
    }
    authSeen.push(req.headers.authorization);
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', async () => {
      const server = await createInProcessMcpServer();
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      res.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(req, res, raw ? JSON.parse(raw) : undefined);
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
});

afterEach(async () => {
  await session?.close();
  session = undefined;
  http.closeAllConnections();
  await new Promise((resolve) => http.close(resolve));
});

describe('MCP over streamable HTTP', () => {
  it('lists and calls tools on a real HTTP MCP server, sending the configured headers', async () => {
    session = createMcpSession({
      connect: connectorFor({ transport: 'http', url, headers: { authorization: 'Bearer t0k' } }),
    });
    await session.connect();
    expect((await session.listTools()).map((t) => t.name)).toContain('calculate');
    expect((await session.callTool('calculate', { expression: '2^10' })).text).toBe('1024');
    expect(authSeen.at(-1)).toBe('Bearer t0k');
  });

  it('after a disconnect the session reconnects over HTTP once the server answers again', async () => {
    session = createMcpSession({
      connect: connectorFor({ transport: 'http', url }),
      reconnect: { enabled: true, backoffMs: 10, maxBackoffMs: 40 },
    });
    await session.connect();
    up = false;
    await session.disconnect();
    await expect(session.callTool('echo', { message: 'x' })).rejects.toMatchObject({ code: 'mcp_disconnected' });
    await new Promise((r) => setTimeout(r, 60));
    expect(session.isConnected()).toBe(false); // the server is refusing (503): reconnect attempts fail
    up = true;
    await vi.waitFor(() => expect(session!.isConnected()).toBe(true), { timeout: 3000, interval: 10 });
    expect((await session.callTool('echo', { message: 'back' })).text).toBe('back');
  });
});
