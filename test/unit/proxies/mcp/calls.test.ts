/**
 * The MCP proxy's call ledger (DESIGN §14): one CallRecord per tools/call,
 * over streamable HTTP with the official SDK client and a real server
 * (server-everything), and over the relay on in-memory transports (stdio's
 * case: no headers); the argument hash ignores key order.
 */
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { createCallLedger } from '../../../../src/protocol/calls.js';
import { startHttpMcpProxy, startMcpControl } from '../../../../src/proxies/mcp/index.js';
import { createToolFaultBook } from '../../../../src/proxies/mcp/faults.js';
import { relaySession } from '../../../../src/proxies/mcp/relay.js';
import { createStats } from '../../../../src/proxies/mcp/stats.js';
import { createToolCallLog } from '../../../../src/proxies/mcp/tool-calls.js';
import { canonicalHash, canonicalJson } from '../../../../src/shared/canonical-json.js';
import { ManualClock } from '../../../../src/shared/clock.js';
import { eventually, postJson, startEverythingHttp, type RunningServer } from '../../../helpers/mcp.js';

let upstream: RunningServer;
beforeAll(async () => {
  upstream = await startEverythingHttp();
});
afterAll(async () => {
  await upstream.stop();
});
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

const TRACE = '0af7651916cd43dd8448eb211c80319c';

describe('MCP proxy call records over streamable HTTP', () => {
  it('each tools/call: tool, argument hash, trial/trace/client headers, ok or not, faulted; GET /v1/calls', async () => {
    const ledger = createCallLedger();
    const proxy = await startHttpMcpProxy({ upstream: upstream.url, port: 0, ledger, agent: 'agent-1' });
    const control = await startMcpControl(proxy, { port: 0, token: 'tok' });
    cleanups.push(
      () => proxy.close(),
      () => control.close(),
    );
    const client = new Client({ name: 'agent', version: '1' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(proxy.url), {
        requestInit: {
          headers: {
            'x-arena-trial': 'sum#1',
            'x-arena-client': 'planner',
            traceparent: `00-${TRACE}-b7ad6b7169203331-01`,
          },
        },
      }),
    );
    cleanups.push(() => client.close());
    await client.callTool({ name: 'get-sum', arguments: { a: 1, b: 2 } });
    await client.callTool({ name: 'get-sum', arguments: { b: 2, a: 1 } });
    const added = await fetch(`${control.url}/v1/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer tok' },
      body: JSON.stringify({
        id: 'e',
        type: 'tool_error',
        params: { tool: 'echo', mode: 'is_error' },
        lease_ms: 60_000,
      }),
    });
    expect(added.status).toBe(201);
    const failed = await client.callTool({ name: 'echo', arguments: { message: 'x' } });
    expect(failed.isError).toBe(true);

    await eventually(() => ledger.calls().records.length === 3);
    const [first, second, third] = ledger.calls().records;
    expect(first).toMatchObject({
      kind: 'tool',
      agent: 'agent-1',
      tool: 'get-sum',
      args_hash: canonicalHash({ a: 1, b: 2 }),
      trial: 'sum#1',
      client: 'planner',
      trace_id: TRACE,
      ok: true,
      faulted: false,
    });
    // the same arguments in another key order: the same hash (a duplicate side effect is recognisable)
    expect(second!.args_hash).toBe(first!.args_hash);
    expect(third).toMatchObject({ tool: 'echo', ok: false, faulted: true, trial: 'sum#1' });

    const unauthorised = await fetch(`${control.url}/v1/calls`);
    expect(unauthorised.status).toBe(401);
    const page = (await (
      await fetch(`${control.url}/v1/calls?since=2`, { headers: { authorization: 'Bearer tok' } })
    ).json()) as { records: { seq: number; tool: string }[]; next: number };
    expect(page.records.map((r) => [r.seq, r.tool])).toEqual([[3, 'echo']]);
    expect(page.next).toBe(3);
    expect(await postJson(`${control.url}/v1/calls`, {}).then((r) => r.status)).not.toBe(200);
  });
});

describe('MCP relay call records (stdio: no headers)', () => {
  async function setup() {
    const clock = new ManualClock();
    const ledger = createCallLedger();
    const server = new McpServer({ name: 'upstream', version: '1' });
    let release: () => void = () => {};
    server.registerTool('echo', { inputSchema: { text: z.string() } }, async ({ text }) => ({
      content: [{ type: 'text', text }],
    }));
    server.registerTool(
      'wait',
      { inputSchema: { text: z.string() } },
      () => new Promise((resolve) => (release = () => resolve({ content: [{ type: 'text', text: 'late' }] }))),
    );
    const [toServer, serverSide] = InMemoryTransport.createLinkedPair();
    const [clientSide, toAgent] = InMemoryTransport.createLinkedPair();
    const relay = relaySession(toAgent, toServer, {
      book: createToolFaultBook(),
      stats: createStats('stdio'),
      clock,
      calls: createToolCallLog({ ledger, clock, agent: 'a' }),
    });
    await Promise.all([toServer.start(), toAgent.start()]);
    await server.connect(serverSide);
    const client = new Client({ name: 'agent', version: '1' });
    await client.connect(clientSide);
    return { ledger, relay, client, release: () => release() };
  }

  it('a result is ok, with no trial or trace; a call the agent cancels and one the session drops are not ok', async () => {
    const { ledger, relay, client, release } = await setup();
    await client.callTool({ name: 'echo', arguments: { text: 'a' } });
    const controller = new AbortController();
    const cancelled = client.callTool({ name: 'wait', arguments: { text: 'b' } }, undefined, {
      signal: controller.signal,
    });
    await new Promise((r) => setImmediate(r));
    controller.abort();
    await expect(cancelled).rejects.toThrow();
    void client.callTool({ name: 'wait', arguments: { text: 'c' } }).catch(() => {});
    await eventually(() => ledger.calls().records.length === 2);
    relay.dropPending();
    release();
    const records = ledger.calls().records;
    expect(records).toHaveLength(3);
    expect(records[0]).toMatchObject({ kind: 'tool', agent: 'a', tool: 'echo', ok: true, faulted: false });
    expect(records[0]!.trial).toBeUndefined();
    expect(records[0]!.trace_id).toBeUndefined();
    expect(records.slice(1).map((r) => [r.tool, r.ok])).toEqual([
      ['wait', false],
      ['wait', false],
    ]);
  });
});

describe('argument hash', () => {
  /** the same value with every object's keys in another order */
  const reorder = (value: unknown, flip: boolean): unknown => {
    if (Array.isArray(value)) return value.map((v) => reorder(v, !flip));
    if (value === null || typeof value !== 'object') return value;
    const keys = Object.keys(value);
    if (flip) keys.reverse();
    return Object.fromEntries(keys.map((k) => [k, reorder((value as Record<string, unknown>)[k], !flip)]));
  };

  it('key order does not change the hash; a changed value does (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.boolean(), (value, flip) => {
        expect(canonicalHash(reorder(value, flip))).toBe(canonicalHash(value));
        expect(canonicalJson(JSON.parse(canonicalJson(value)))).toBe(canonicalJson(value));
      }),
      { numRuns: 300 },
    );
    expect(canonicalHash({ a: 1 })).not.toBe(canonicalHash({ a: 2 }));
    expect(canonicalJson({ b: [1, { d: 1, c: 2 }], a: 'x' })).toBe('{"a":"x","b":[1,{"c":2,"d":1}]}');
  });
});
