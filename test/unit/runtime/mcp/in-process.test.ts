import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createInProcessMcpServer,
  createMcpSession,
  inProcessConnector,
  McpSessionError,
  type McpSession,
  type McpSessionEvent,
} from '../../../../src/runtime/mcp/index.js';
import { ManualClock } from '../../../../src/shared/clock.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { lazySchemaValidator } from '../../../../src/runtime/mcp/schema-validator.js';

let session: McpSession | undefined;
afterEach(async () => {
  await session?.close();
  session = undefined;
});

describe('in-process MCP server over the SDK in-memory transport', () => {
  it('lists and calls real tools through the protocol', async () => {
    session = createMcpSession({ connect: inProcessConnector(), clock: new ManualClock() });
    await session.connect();
    expect(session.isConnected()).toBe(true);
    const tools = await session.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['calculate', 'echo', 'note_get', 'note_put', 'word_count']);
    expect(await session.callTool('calculate', { expression: '6 * 7' })).toMatchObject({
      text: '42',
      structuredContent: { value: 42 },
      isError: false,
    });
    expect((await session.callTool('word_count', { text: 'one two  three' })).text).toBe('3');
    expect((await session.callTool('calculate', { expression: '1 / 0' })).isError).toBe(true);
    // the server validates arguments against the tool's schema
    const bad = await session.callTool('echo', { message: 5 });
    expect(bad).toMatchObject({ isError: true, text: expect.stringMatching(/Input validation error/) });
    expect((await session.callTool('nope')).text).toMatch(/Tool nope not found/);
  });

  it("a session, whose JSON Schema validator is built on first use, still rejects structured output that breaks a tool's output schema", async () => {
    // a low-level server that advertises an output schema and does not keep to it: only the client's check can catch it
    const server = new Server({ name: 'liar', version: '1.0.0' }, { capabilities: { tools: {} } });
    const outputSchema = { type: 'object' as const, properties: { sum: { type: 'number' } }, required: ['sum'] };
    server.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: [{ name: 'add', inputSchema: { type: 'object' as const }, outputSchema }],
    }));
    server.setRequestHandler(CallToolRequestSchema, async (request) => {
      const { a, b } = request.params.arguments as { a: number; b: number };
      return {
        content: [{ type: 'text' as const, text: String(a + b) }],
        structuredContent: a === b ? { sum: 'same' } : { sum: a + b },
      };
    });
    const connect = async () => {
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      await server.connect(serverSide);
      return clientSide;
    };
    session = createMcpSession({ connect, clock: new ManualClock() });
    await session.connect();
    await session.listTools(); // the client learns the output schemas here
    expect(await session.callTool('add', { a: 2, b: 3 })).toMatchObject({
      structuredContent: { sum: 5 },
      isError: false,
    });
    await expect(session.callTool('add', { a: 2, b: 2 })).rejects.toThrow(
      /Structured content does not match the tool's output schema/,
    );
    // and the validator itself, as the session and the in-process server are given it
    const check = lazySchemaValidator().getValidator({
      type: 'object',
      properties: { n: { type: 'number' } },
      required: ['n'],
    });
    expect(check({ n: 1 }).valid).toBe(true);
    expect(check({ n: 'one' })).toMatchObject({ valid: false, errorMessage: expect.stringMatching(/must be number/) });
  });

  it('disconnect closes the live transport: calls fail, then reconnect with backoff restores service and server state', async () => {
    const clock = new ManualClock();
    const events: McpSessionEvent[] = [];
    session = createMcpSession({
      connect: inProcessConnector(createInProcessMcpServer()),
      clock,
      reconnect: { enabled: true, backoffMs: 200, maxBackoffMs: 1000 },
      onEvent: (e) => events.push(e),
    });
    await session.connect();
    await session.callTool('note_put', { key: 'k', value: 'kept' });

    await session.disconnect();
    expect(session.isConnected()).toBe(false);
    expect(session.isReconnecting).toBe(true);
    await expect(session.callTool('echo', { message: 'x' })).rejects.toMatchObject({ code: 'mcp_disconnected' });
    await expect(session.listTools()).rejects.toBeInstanceOf(McpSessionError);

    await clock.advance(199);
    expect(session.isConnected()).toBe(false);
    await clock.advance(1);
    await vi.waitFor(() => expect(session!.isConnected()).toBe(true));
    expect(session.reconnects).toBe(1);
    expect(session.disconnects).toBe(1);
    expect((await session.callTool('note_get', { key: 'k' })).text).toBe('kept');
    expect(events.map((e) => e.type)).toEqual(['connected', 'disconnected', 'reconnected']);
    expect(events[1]).toMatchObject({ reason: 'fault', at: 0 });
    expect(events[2]).toMatchObject({ at: 200, attempt: 1 });
  });

  it('with reconnect disabled the session stays down until reconnect is turned back on', async () => {
    const clock = new ManualClock();
    session = createMcpSession({
      connect: inProcessConnector(),
      clock,
      reconnect: { enabled: false, backoffMs: 50, maxBackoffMs: 50 },
    });
    await session.connect();
    await session.disconnect();
    await clock.advance(10_000);
    expect(session.isConnected()).toBe(false);
    await expect(session.callTool('echo', { message: 'x' })).rejects.toBeInstanceOf(McpSessionError);
    session.configureReconnect({ enabled: true });
    await clock.advance(50);
    await vi.waitFor(() => expect(session!.isConnected()).toBe(true));
    expect((await session.callTool('echo', { message: 'back' })).text).toBe('back');
  });

  it('backs off exponentially while the server cannot be reached, and gives up after maxAttempts', async () => {
    const clock = new ManualClock();
    const events: McpSessionEvent[] = [];
    const real = inProcessConnector();
    let reachable = true;
    let attempts = 0;
    session = createMcpSession({
      connect: async () => {
        attempts++;
        if (!reachable) throw new Error('connection refused');
        return real();
      },
      clock,
      reconnect: { enabled: true, backoffMs: 100, maxBackoffMs: 300, maxAttempts: 4 },
      onEvent: (e) => events.push(e),
    });
    await session.connect();
    reachable = false;
    await session.disconnect();
    // attempts at +100, +200 (300), +300 capped (600), +300 (900)
    for (const [advance, expected] of [
      [100, 2],
      [200, 3],
      [300, 4],
      [300, 5],
    ] as const) {
      await clock.advance(advance);
      await vi.waitFor(() => expect(attempts).toBe(expected));
    }
    await clock.advance(5000);
    expect(attempts).toBe(5);
    const failures = events.filter((e) => e.type === 'reconnect_failed');
    expect(failures.map((e) => e.at)).toEqual([100, 300, 600, 900]);
    expect(failures.at(-1)).toMatchObject({ givingUp: true });
    // a manual connect still works once the server is back
    reachable = true;
    await session.connect();
    expect(session.isConnected()).toBe(true);
  });

  it('close ends the session for good', async () => {
    const clock = new ManualClock();
    session = createMcpSession({ connect: inProcessConnector(), clock });
    await session.connect();
    await session.close();
    await clock.advance(60_000);
    expect(session.isConnected()).toBe(false);
    await expect(session.callTool('echo', { message: 'x' })).rejects.toThrow(/closed/);
    expect(clock.pendingTimers()).toBe(0);
  });
});
