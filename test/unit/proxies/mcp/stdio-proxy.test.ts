/**
 * The stdio MCP proxy in-process: the agent side is a pair of streams (what the proxy's own
 * stdin/stdout are in the CLI) read by the official SDK Client, the server side a real
 * server-everything child spawned through the SDK's StdioClientTransport.
 */
import { readFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { startStdioMcpProxy, type McpProxy } from '../../../../src/proxies/mcp/index.js';
import { descendants } from '../../../../src/proxies/mcp/process-tree.js';
import { EVERYTHING, eventually } from '../../../helpers/mcp.js';

/** An SDK transport over the agent's ends of the proxy's stdio: what StdioClientTransport does over a child's pipes. */
class StreamsTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private readonly buffer = new ReadBuffer();
  private isClosed = false;
  constructor(
    private readonly fromProxy: PassThrough,
    private readonly toProxy: PassThrough,
  ) {}
  async start() {
    this.fromProxy.on('data', (chunk: Buffer) => {
      this.buffer.append(chunk);
      for (let m = this.buffer.readMessage(); m; m = this.buffer.readMessage()) this.onmessage?.(m);
    });
    this.fromProxy.on('end', () => this.closed());
  }
  async send(message: JSONRPCMessage) {
    this.toProxy.write(serializeMessage(message));
  }
  async close() {
    this.toProxy.end();
    this.closed();
  }
  private closed() {
    if (this.isClosed) return;
    this.isClosed = true;
    this.onclose?.();
  }
}

const proxies: McpProxy[] = [];
afterEach(async () => {
  await Promise.all(proxies.splice(0).map((p) => p.close()));
});

async function launch(args = [EVERYTHING, 'stdio'], isConnected = true) {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const proxy = await startStdioMcpProxy({
    command: process.execPath,
    args,
    stdin,
    stdout,
    env: { PATH: process.env.PATH ?? '' },
    killGraceMs: 200,
    serverStderr: 'ignore',
  });
  proxies.push(proxy);
  const client = new Client({ name: 'arena-test-agent', version: '1.0.0' });
  let isClientClosed = false;
  client.onclose = () => (isClientClosed = true);
  const connected = client.connect(new StreamsTransport(stdout, stdin));
  if (isConnected) await connected;
  return { proxy, client, connected, isClientClosed: () => isClientClosed };
}

const serverPid = (): number | undefined =>
  descendants(process.pid).find((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('server-everything');
    } catch {
      return false;
    }
  });

describe('MCP proxy over stdio', () => {
  it('relays tools/list and tools/call, and applies tool faults from its registry', async () => {
    const { proxy, client } = await launch();
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('echo');
    expect(await client.callTool({ name: 'echo', arguments: { message: 'via stdio' } })).toEqual({
      content: [{ type: 'text', text: 'Echo: via stdio' }],
    });
    await proxy.faults.add({ id: 'e1', type: 'tool_error', params: { tool: 'echo' }, lease_ms: 60_000 });
    expect((await client.callTool({ name: 'echo', arguments: { message: 'x' } })).isError).toBe(true);
    expect(proxy.stats()).toMatchObject({
      mode: 'stdio',
      sessions: { open: 1, total: 1 },
      tool_calls: 2,
      errors_injected: 1,
    });
  });

  it("mcp_disconnect kills the server, closes the agent's pipes and ends the proxy; launching again reconnects", async () => {
    const first = await launch();
    await first.client.callTool({ name: 'echo', arguments: { message: 'before' } });
    const pid = serverPid();
    expect(pid).toBeDefined();
    const { status, body } = await first.proxy.faults.add({
      id: 'cut',
      type: 'mcp_disconnect',
      params: {},
      lease_ms: 60_000,
    });
    expect(status).toBe(201);
    expect(body.report).toMatchObject({ server_pid: expect.any(Number), pipes_closed: true });
    expect(await first.proxy.ended).toBe('disconnected');
    await eventually(() => first.isClientClosed());
    expect(() => process.kill(pid!, 0)).toThrow(); // the server process is gone
    // what a stdio client does for a server that died: launch it again
    const second = await launch();
    expect(await second.client.callTool({ name: 'echo', arguments: { message: 'after' } })).toEqual({
      content: [{ type: 'text', text: 'Echo: after' }],
    });
  });

  it('refuses a stdio mcp_disconnect with a duration (the relaunch is the reconnect), changing nothing', async () => {
    const { proxy, client } = await launch();
    await expect(
      proxy.faults.add({ id: 'cut', type: 'mcp_disconnect', params: {}, duration_ms: 1000, lease_ms: 60_000 }),
    ).rejects.toMatchObject({ status: 422, code: 'not_applicable' });
    expect(await client.callTool({ name: 'echo', arguments: { message: 'still here' } })).toEqual({
      content: [{ type: 'text', text: 'Echo: still here' }],
    });
  });

  it('when the agent closes its end, the proxy stops the server and ends', async () => {
    const { proxy, client } = await launch();
    const pid = serverPid();
    await client.close();
    expect(await proxy.ended).toBe('agent_closed');
    expect(() => process.kill(pid!, 0)).toThrow();
  });

  it('when the server exits on its own, the agent sees its pipes close, as without the proxy', async () => {
    // a server that dies before it answers initialize
    const { proxy, connected } = await launch(['-e', 'setTimeout(() => process.exit(1), 300)'], false);
    await expect(connected).rejects.toThrow(/Connection closed/);
    expect(await proxy.ended).toBe('server_exited');
  });

  it('a command that cannot be started is a usage error naming it', async () => {
    await expect(
      startStdioMcpProxy({ command: '/nonexistent/mcp-server', stdin: new PassThrough(), stdout: new PassThrough() }),
    ).rejects.toMatchObject({ exitCode: 2, message: expect.stringContaining('/nonexistent/mcp-server') });
  });
});
