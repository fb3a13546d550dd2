/**
 * `tool_fault` (DESIGN §13.2) through the streamable-HTTP MCP proxy, as the official SDK client sees it,
 * in front of a real server (server-everything); real results come back once the fault is deleted.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { startHttpMcpProxy, startMcpControl, type McpHttpProxy } from '../../../../src/proxies/mcp/index.js';
import type { ProtocolServer } from '../../../../src/protocol/http.js';
import {
  eventually,
  getJson,
  httpClient,
  postJson,
  startEverythingHttp,
  type RunningServer,
} from '../../../helpers/mcp.js';

let upstream: RunningServer;
let proxy: McpHttpProxy;
let control: ProtocolServer;
const clients: Client[] = [];

beforeAll(async () => {
  upstream = await startEverythingHttp();
});
afterAll(async () => {
  await upstream.stop();
});
beforeEach(async () => {
  proxy = await startHttpMcpProxy({ upstream: upstream.url, port: 0 });
  control = await startMcpControl(proxy, { port: 0 });
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => {})));
  await control.close();
  await proxy.close();
});

async function connect(): Promise<Client> {
  const client = await httpClient(proxy.url);
  clients.push(client);
  return client;
}
let seq = 0;
const inject = async (params: Record<string, unknown>) => {
  const id = `tf${++seq}`;
  const res = await postJson(`${control.url}/v1/faults`, { id, type: 'tool_fault', params, lease_ms: 60_000 });
  return { id, res };
};
const remove = (id: string) => fetch(`${control.url}/v1/faults/${id}`, { method: 'DELETE' });
const stats = () => getJson(`${control.url}/v1/stats`) as Promise<Record<string, unknown>>;
const echo = (client: Client, message: string) => client.callTool({ name: 'echo', arguments: { message } });

describe('tool_fault through the MCP proxy (official SDK client, server-everything)', () => {
  it('truncate cuts the text; empty gives content []; deleting the fault gives real results back', async () => {
    const client = await connect();
    const t = await inject({ mode: 'truncate', keep: 0.5, tool: 'ec*' });
    expect(t.res.status).toBe(201);
    expect(await echo(client, 'abcdefgh')).toEqual({ content: [{ type: 'text', text: 'Echo: a' }] });
    await remove(t.id);
    const e = await inject({ mode: 'empty' });
    expect((await echo(client, 'x')).content).toEqual([]);
    await remove(e.id);
    expect(await echo(client, 'real')).toEqual({ content: [{ type: 'text', text: 'Echo: real' }] });
    expect(await stats()).toMatchObject({ results_changed: 2 });
  });

  it('inject appends an instruction carrying the canary, the original text kept', async () => {
    const client = await connect();
    const { id, res } = await inject({ mode: 'inject', tool: 'echo' });
    expect((res.body as { report: { canary: string } }).report.canary).toBe(`ARENA-CANARY-${id}`);
    const text = ((await echo(client, 'data')).content as Array<{ text: string }>)[0]!.text;
    expect(text.startsWith('Echo: data')).toBe(true);
    expect(text).toContain(`ARENA-CANARY-${id}`);
  });

  it('the canary is traced: an agent that echoes it back calls a tool with it (it drove an action), per fault in /v1/stats', async () => {
    const client = await connect();
    const { id } = await inject({ mode: 'inject', tool: 'echo' });
    const text = ((await echo(client, 'data')).content as Array<{ text: string }>)[0]!.text;
    await echo(client, 'an innocent call');
    expect((await stats()).markers).toEqual([
      { fault_id: id, source: 'mcp', kind: 'canary', markers: 1, entered_context: 0, drove_action: 0, reached_user: 0 },
    ]);
    // a naive agent acts on what the tool told it
    await echo(client, text.slice(text.indexOf('ARENA-CANARY-')));
    expect((await stats()).markers).toMatchObject([{ fault_id: id, drove_action: 1 }]);
  });

  it('corrupt changes one field of structuredContent (the SDK client then refuses it against the output schema, or sees the change)', async () => {
    const client = await connect();
    await client.listTools();
    const real = await client.callTool({ name: 'get-structured-content', arguments: { location: 'Chicago' } });
    await inject({ mode: 'corrupt', tool: 'get-structured-content' });
    const outcome = await client
      .callTool({ name: 'get-structured-content', arguments: { location: 'Chicago' } })
      .then((r) => ({ result: r }))
      .catch((error: Error) => ({ error }));
    if ('error' in outcome) expect(outcome.error.message).toMatch(/structured content|output schema/i);
    else expect(outcome.result.structuredContent).not.toEqual(real.structuredContent);
    expect(await stats()).toMatchObject({ results_changed: 1 });
  });

  it('schema_drift hides and renames; list_changed is sent when it starts and when it ends', async () => {
    const client = await connect();
    let notified = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      notified++;
    });
    const { id } = await inject({ mode: 'schema_drift', hide: ['echo'], rename: { 'get-sum': { a: 'first' } } });
    await eventually(() => notified === 1);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).not.toContain('echo');
    const sum = tools.find((t) => t.name === 'get-sum')!;
    expect(Object.keys(sum.inputSchema.properties ?? {})).toEqual(expect.arrayContaining(['first', 'b']));
    const removed = await remove(id);
    expect(removed.status).toBe(200);
    expect(await stats()).toMatchObject({ list_changed_sent: 2 });
    await eventually(() => notified === 2);
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('echo');
  });

  it('duplicate_call sends the call upstream twice; the client sees one answer', async () => {
    const client = await connect();
    await inject({ mode: 'duplicate_call', tool: 'echo' });
    expect(await echo(client, 'once')).toEqual({ content: [{ type: 'text', text: 'Echo: once' }] });
    await eventually(async () => (await stats()).duplicate_calls === 1);
    const s = await stats();
    expect((s.messages_relayed as { to_server: number }).to_server).toBeGreaterThan(0);
  });

  it('a bad tool_fault is a 400 naming the field, and nothing is applied', async () => {
    const bad = await inject({ mode: 'truncate', payload: 'x' });
    expect(bad.res.status).toBe(400);
    expect((bad.res.body as { error: string }).error).toBe('params.payload: only inject takes it, not truncate');
    const none = await inject({ mode: 'schema_drift' });
    expect(none.res.status).toBe(400);
  });
});
