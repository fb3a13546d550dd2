/**
 * The relay's decisions on a manual clock: the SDK client and an SDK McpServer on in-memory
 * transports, the relay between them, time moved by hand.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ManualClock } from '../../../../src/shared/clock.js';
import { createToolFaultBook, mcpFaultApplier } from '../../../../src/proxies/mcp/faults.js';
import { relaySession } from '../../../../src/proxies/mcp/relay.js';
import { createStats } from '../../../../src/proxies/mcp/stats.js';

async function setup() {
  const clock = new ManualClock();
  const book = createToolFaultBook();
  const stats = createStats('stdio');
  const apply = mcpFaultApplier({ book, disconnect: () => ({}) });
  const calls: string[] = [];
  const server = new McpServer({ name: 'upstream', version: '1' });
  for (const name of ['echo', 'search']) {
    server.registerTool(name, { inputSchema: { text: z.string() } }, async ({ text }) => {
      calls.push(`${name}:${text}`);
      return { content: [{ type: 'text', text }] };
    });
  }
  const [toServer, serverSide] = InMemoryTransport.createLinkedPair();
  const [clientSide, toAgent] = InMemoryTransport.createLinkedPair();
  const relay = relaySession(toAgent, toServer, { book, stats, clock });
  await Promise.all([toServer.start(), toAgent.start()]);
  await server.connect(serverSide);
  const client = new Client({ name: 'agent', version: '1' });
  await client.connect(clientSide);
  const call = (name: string, text: string, timeout?: number) =>
    client.callTool({ name, arguments: { text } }, undefined, timeout === undefined ? undefined : { timeout });
  return { clock, stats, apply, calls, call, relay, client };
}

const settle = () => new Promise((r) => setImmediate(r));

describe('MCP relay decisions', () => {
  it('slow_tool: the call reaches the server only once the clock has moved delay_ms', async () => {
    const { clock, apply, calls, call } = await setup();
    await apply({ id: 's', type: 'slow_tool', params: { delay_ms: 1000 }, lease_ms: 60_000 });
    const pending = call('echo', 'a');
    await settle();
    await clock.advance(999);
    expect(calls).toEqual([]);
    await clock.advance(1);
    expect(await pending).toEqual({ content: [{ type: 'text', text: 'a' }] });
    expect(calls).toEqual(['echo:a']);
  });

  it('tool_timeout on one tool holds only that tool; releasing forwards the held call once', async () => {
    const { apply, calls, call, stats } = await setup();
    const hold = await apply({ id: 'h', type: 'tool_timeout', params: { tool: 'search' }, lease_ms: 60_000 });
    const held = call('search', 'q');
    expect(await call('echo', 'free')).toEqual({ content: [{ type: 'text', text: 'free' }] });
    expect(calls).toEqual(['echo:free']);
    expect(stats.calls_held).toEqual({ now: 1, total: 1 });
    await hold.revert!();
    expect(await held).toEqual({ content: [{ type: 'text', text: 'q' }] });
    expect(calls).toEqual(['echo:free', 'search:q']);
    expect(stats.calls_held.now).toBe(0);
  });

  it('a delayed call the agent cancels never reaches the server', async () => {
    const { clock, apply, calls, call, stats } = await setup();
    await apply({ id: 's', type: 'slow_tool', params: { delay_ms: 60_000 }, lease_ms: 60_000 });
    // the SDK's own request timeout (real time) cancels the call
    await expect(call('echo', 'late', 50)).rejects.toMatchObject({ code: -32001 });
    await settle();
    await clock.advance(60_000);
    expect(calls).toEqual([]);
    expect(stats.calls_dropped).toBe(1);
  });

  it('dropPending drops held calls: releasing the fault later forwards nothing', async () => {
    const { apply, calls, call, relay, stats } = await setup();
    const hold = await apply({ id: 'h', type: 'tool_timeout', params: {}, lease_ms: 60_000 });
    void call('echo', 'x', 200).catch(() => {});
    await settle();
    relay.dropPending();
    await hold.revert!();
    await settle();
    expect(calls).toEqual([]);
    expect(stats.calls_dropped).toBe(1);
  });
});
