/**
 * tool_timeout and mcp_disconnect through the MCP fault proxy a process
 * target starts from its `mcp:` block, in front of a real MCP server
 * (server-everything over streamable HTTP), with the official SDK client
 * standing in for an agent's MCP session.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Target } from '../../src/arena/providers.js';
import { createProcessTarget } from '../../src/targets/process/index.js';
import { Injector } from '../../src/arena/injector.js';
import { createAction } from '../../src/arena/actions.js';
import { httpClient, startEverythingHttp, type RunningServer } from '../helpers/mcp.js';
import { FLEET_DIR, freePorts, processesMatching, tinyFleet, waitFor } from '../helpers/process-fleet.js';

let upstream: RunningServer;
let target: Target | undefined;
const clients: Client[] = [];
const tag = `mcp${process.pid}`;

beforeAll(async () => {
  upstream = await startEverythingHttp();
});
afterAll(async () => {
  await upstream.stop();
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => {})));
  await target?.stop();
  target = undefined;
  expect(processesMatching(tag)).toEqual([]);
});

async function start() {
  const [listen] = await freePorts(1);
  const fleet = await tinyFleet({
    tag,
    n: 1,
    edit: (input) => void (input.agents[0]!.mcp = { listen: listen!, upstream: upstream.url }),
  });
  target = createProcessTarget(fleet.spec, { baseDir: FLEET_DIR });
  await target.start();
  const connect = async () => {
    const client = await httpClient(`http://127.0.0.1:${listen}/mcp`);
    clients.push(client);
    return client;
  };
  return { id: fleet.ids[0]!, connect };
}

describe('process target: MCP faults through the MCP proxy', { timeout: 45_000 }, () => {
  it('tool_timeout holds tools/call until its duration ends', async () => {
    const { id, connect } = await start();
    const client = await connect();
    await target!.runtime.toolTimeout(id, { durationMs: 700 });
    expect((await target!.observer.health({ kind: 'agent', id, aspect: 'mcp' })).problems).toContain(
      `${id}: tool_timeout is active`,
    );
    const started = performance.now();
    const answer = await client.callTool({ name: 'echo', arguments: { message: 'late' } });
    expect(performance.now() - started).toBeGreaterThanOrEqual(550);
    expect(answer).toEqual({ content: [{ type: 'text', text: 'Echo: late' }] });
    expect(await target!.runtime.activeFaults()).toEqual([]);
    // the held call is in the target's ledger, under its agent; the MCP proxy's stats are in its report
    expect(target!.calls!.calls().records).toEqual([
      expect.objectContaining({ kind: 'tool', agent: id, tool: 'echo', ok: true, faulted: true }),
    ]);
    expect(target!.proxies!()).toEqual([
      expect.objectContaining({
        kind: 'mcp',
        agents: [id],
        upstream: upstream.url,
        stats: expect.objectContaining({ tool_calls: 1, calls_held: { now: 0, total: 1 } }),
      }),
    ]);
  });

  it('tool_fault from a scenario action changes tool results through the mcp: proxy until it is reverted', async () => {
    const { id, connect } = await start();
    const client = await connect();
    const injector = new Injector(target!.runtime, target!.dag);
    const report = (await injector.apply(
      createAction('tool_fault', id, { metadata: { mode: 'inject', tool: 'ech?', duration: '30s' } }),
    )) as Record<string, unknown>;
    const canary = String(report.canary);
    expect(canary).toMatch(/^ARENA-CANARY-/);
    const text = (
      (await client.callTool({ name: 'echo', arguments: { message: 'data' } })).content as Array<{
        text: string;
      }>
    )[0]!.text;
    expect(text.startsWith('Echo: data')).toBe(true);
    expect(text).toContain(canary);
    // the target's one marker book (DESIGN §13.3): the agent acting on the canary is a tool call carrying it
    await client.callTool({ name: 'echo', arguments: { message: `done: ${canary}` } });
    expect(target!.markers?.()).toEqual([expect.objectContaining({ kind: 'canary', source: 'mcp', drove_action: 1 })]);
    expect(await target!.runtime.revertFault(String(report.fault_id))).toBe(true);
    expect(await client.callTool({ name: 'echo', arguments: { message: 'real' } })).toEqual({
      content: [{ type: 'text', text: 'Echo: real' }],
    });
  });

  it('mcp_disconnect closes the session; the mcp aspect recovers only when the agent opens a new one', async () => {
    const { id, connect } = await start();
    await expect(target!.runtime.disconnectMCP(id)).rejects.toThrow('has no open MCP session');
    const client = await connect();
    const report = await target!.runtime.disconnectMCP(id);
    expect(report).toMatchObject({ sessions_closed: 1 });
    await expect(client.callTool({ name: 'echo', arguments: { message: 'x' } })).rejects.toThrow();
    expect((await target!.observer.health({ kind: 'agent', id, aspect: 'mcp' })).healthy).toBe(false);
    await connect();
    await waitFor(
      async () => (await target!.observer.health({ kind: 'agent', id, aspect: 'mcp' })).healthy,
      3000,
      'a new session',
    );
  });
});
