import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  connectorFor,
  createMcpSession,
  stdioConnector,
  type McpSession,
  type McpSessionEvent,
} from '../../../../src/runtime/mcp/index.js';
import { UsageError } from '../../../../src/shared/errors.js';

const fixture = fileURLToPath(new URL('../../../fixtures/mcp-server.mjs', import.meta.url));

let session: McpSession | undefined;
afterEach(async () => {
  await session?.close();
  session = undefined;
});

describe('MCP over stdio to a real server process', () => {
  it('spawns the configured command, lists and calls its tools', async () => {
    session = createMcpSession({
      connect: connectorFor({
        transport: 'stdio',
        command: process.execPath,
        args: [fixture],
        env: { FIXTURE_PREFIX: 'sum=' },
      }),
    });
    await session.connect();
    expect((await session.listTools()).map((t) => t.name)).toEqual(['add', 'pid', 'crash']);
    expect(await session.callTool('add', { a: 2, b: 40 })).toMatchObject({
      text: 'sum=42',
      structuredContent: { sum: 42 },
      isError: false,
    });
    const pid = Number((await session.callTool('pid')).text);
    expect(pid).toBeGreaterThan(0);
    expect(pid).not.toBe(process.pid);
  });

  it('disconnect kills the transport; reconnect spawns a fresh server process', async () => {
    const events: McpSessionEvent[] = [];
    session = createMcpSession({
      connect: stdioConnector({ command: process.execPath, args: [fixture] }),
      reconnect: { enabled: true, backoffMs: 20, maxBackoffMs: 200 },
      onEvent: (e) => events.push(e),
    });
    await session.connect();
    const firstPid = (await session.callTool('pid')).text;
    await session.disconnect();
    await expect(session.callTool('pid')).rejects.toMatchObject({ code: 'mcp_disconnected' });
    await vi.waitFor(() => expect(session!.isConnected()).toBe(true), { timeout: 5000, interval: 10 });
    const secondPid = (await session.callTool('pid')).text;
    expect(secondPid).not.toBe(firstPid);
    expect(session.reconnects).toBe(1);
    expect(events.map((e) => e.type)).toEqual(['connected', 'disconnected', 'reconnected']);
  });

  it('a server process that dies is noticed and replaced', async () => {
    session = createMcpSession({
      connect: stdioConnector({ command: process.execPath, args: [fixture] }),
      reconnect: { enabled: true, backoffMs: 20, maxBackoffMs: 200 },
    });
    await session.connect();
    const firstPid = (await session.callTool('pid')).text;
    await session.callTool('crash');
    await vi.waitFor(() => expect(session!.reconnects).toBe(1), { timeout: 5000, interval: 10 });
    expect((await session.callTool('pid')).text).not.toBe(firstPid);
    expect((await session.callTool('add', { a: 1, b: 1 })).text).toBe('2');
  });

  it('a command that cannot start fails the connect with a clear error', async () => {
    session = createMcpSession({
      connect: stdioConnector({ command: '/nonexistent/mcp-server-binary' }),
      reconnect: { enabled: false },
    });
    await expect(session.connect()).rejects.toThrow(/ENOENT|nonexistent/);
    expect(session.isConnected()).toBe(false);
  });

  it('rejects bad server configuration, naming the field', () => {
    expect(() => connectorFor({ transport: 'stdio' }, 'servers[0]')).toThrow(/servers\[0\]\.command/);
    expect(() => connectorFor({ transport: 'ws', url: 'x' }, 'servers[1]')).toThrow(UsageError);
    expect(() => connectorFor({ transport: 'http', url: 'not a url' })).toThrow(/not a valid URL/);
    expect(() => connectorFor({ transport: 'stdio', command: 'x', args: [1] })).toThrow(/args/);
  });
});
