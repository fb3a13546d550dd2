/**
 * The streamable-HTTP MCP proxy between the official SDK client and a real MCP server
 * (server-everything), every fault injected through the control port over real HTTP.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Client as SdkClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ListRootsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
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

// one real server for the file (it keeps any number of sessions apart); a proxy of its own per test
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

const inject = (body: Record<string, unknown>) => postJson(`${control.url}/v1/faults`, body);
const stats = () => getJson(`${control.url}/v1/stats`);
const echo = (client: Client, message = 'hi', timeout?: number) =>
  client.callTool({ name: 'echo', arguments: { message } }, undefined, timeout === undefined ? undefined : { timeout });

describe('MCP proxy over streamable HTTP', () => {
  it('passes tools/list and tools/call through untouched and counts them', async () => {
    const client = await connect();
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['echo', 'get-sum']));
    expect(await echo(client, 'through the proxy')).toEqual({
      content: [{ type: 'text', text: 'Echo: through the proxy' }],
    });
    const s = await stats();
    expect(s).toMatchObject({
      mode: 'http',
      sessions: { open: 1, total: 1 },
      tool_calls: 1,
      errors_injected: 0,
      active_faults: 0,
    });
    expect(s.messages_relayed.to_server).toBeGreaterThanOrEqual(4); // initialize, initialized, tools/list, tools/call
  });

  it('progress notifications reach the agent on the stream of the call they belong to', async () => {
    const client = await connect();
    const seen: number[] = [];
    const result = await client.callTool(
      { name: 'trigger-long-running-operation', arguments: { duration: 0.2, steps: 3 } },
      undefined,
      { onprogress: (p) => seen.push(p.progress) },
    );
    expect(JSON.stringify(result.content)).toContain('completed');
    expect(seen).toEqual([1, 2, 3]);
  });

  it("relays requests the server sends the agent (roots/list) and the agent's answers back", async () => {
    const client = new SdkClient({ name: 'arena-test-agent', version: '1.0.0' }, { capabilities: { roots: {} } });
    let asked = 0;
    client.setRequestHandler(ListRootsRequestSchema, async () => {
      asked++;
      return { roots: [{ uri: 'file:///work', name: 'work' }] };
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(proxy.url)));
    clients.push(client);
    // server-everything asks for the roots shortly after initialize
    await eventually(() => asked > 0);
    const listed = await client.callTool({ name: 'get-roots-list', arguments: {} });
    expect(JSON.stringify(listed.content)).toContain('file:///work');
  });

  it('an agent ending its session (DELETE) ends the upstream session too', async () => {
    const client = await connect();
    await (client.transport as StreamableHTTPClientTransport).terminateSession();
    expect((await stats()).sessions).toEqual({ open: 0, total: 1 });
  });

  it('an unreachable server is an error answer to the agent, not a hang, and leaves no session', async () => {
    const dead = await startHttpMcpProxy({ upstream: 'http://127.0.0.1:9/mcp', port: 0 });
    try {
      await expect(httpClient(dead.url)).rejects.toThrow(/MCP server unreachable through the arena proxy/);
      await eventually(() => dead.stats().sessions.open === 0);
      expect(dead.stats()).toMatchObject({ sessions: { open: 0, total: 1 }, upstream_errors: 1 });
    } finally {
      await dead.close();
    }
  });

  it('tool_error as an isError result, limited to one tool, then gone when deleted', async () => {
    const client = await connect();
    const created = await inject({
      id: 'err-1',
      type: 'tool_error',
      params: { tool: 'echo', message: 'search backend down' },
    });
    expect(created).toEqual({
      status: 201,
      body: { id: 'err-1', report: { type: 'tool_error', tool: 'echo', mode: 'is_error' } },
    });
    expect(await echo(client)).toEqual({ content: [{ type: 'text', text: 'search backend down' }], isError: true });
    // another tool is not touched
    const sum = await client.callTool({ name: 'get-sum', arguments: { a: 2, b: 3 } });
    expect(JSON.stringify(sum.content)).toContain('5');
    const deleted = await fetch(`${control.url}/v1/faults/err-1`, { method: 'DELETE' });
    expect(await deleted.json()).toEqual({ id: 'err-1', reverted: true });
    expect(await echo(client)).toEqual({ content: [{ type: 'text', text: 'Echo: hi' }] });
    expect((await stats()).errors_injected).toBe(1);
  });

  it('tool_error as a JSON-RPC error surfaces as the SDK McpError with that code', async () => {
    const client = await connect();
    await inject({
      id: 'err-2',
      type: 'tool_error',
      params: { mode: 'jsonrpc', code: -32050, message: 'quota exhausted' },
    });
    const err = await echo(client).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(McpError);
    expect((err as McpError).code).toBe(-32050);
    expect((err as McpError).message).toContain('quota exhausted');
  });

  it('tool_timeout holds the call until the client gives up; the cancelled call never reaches the server', async () => {
    const client = await connect();
    await inject({ id: 'hold-1', type: 'tool_timeout', duration_ms: 60_000 });
    const started = performance.now();
    const err = await echo(client, 'held', 300).catch((e: unknown) => e);
    expect((err as McpError).code).toBe(-32001); // the SDK's RequestTimeout
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    // the SDK sends notifications/cancelled on timeout: the proxy drops the held call
    await eventually(async () => (await stats()).calls_dropped === 1);
    expect(await stats()).toMatchObject({ calls_held: { now: 0, total: 1 } });
    expect((await getJson(`${control.url}/v1/faults`)).faults).toEqual([
      expect.objectContaining({ id: 'hold-1', type: 'tool_timeout' }),
    ]);
    const before = (await stats()).messages_relayed.to_server;
    await fetch(`${control.url}/v1/faults/hold-1`, { method: 'DELETE' });
    expect((await stats()).messages_relayed.to_server).toBe(before);
    expect(await echo(client, 'after')).toEqual({ content: [{ type: 'text', text: 'Echo: after' }] });
  });

  it("a call held by tool_timeout is forwarded when the fault's duration ends", async () => {
    const client = await connect();
    // timed from before the fault is asked for: its 300 ms start no sooner (the answer to the inject
    // itself came 35 ms late on a starved machine)
    const started = performance.now();
    await inject({ id: 'hold-2', type: 'tool_timeout', duration_ms: 300 });
    expect(await echo(client, 'late', 5000)).toEqual({ content: [{ type: 'text', text: 'Echo: late' }] });
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
  });

  it('slow_tool delays each call by at least delay_ms, measured at the client', async () => {
    const client = await connect();
    await inject({ id: 'slow-1', type: 'slow_tool', params: { delay_ms: 400 } });
    const t = performance.now();
    expect(await echo(client, 'slow')).toEqual({ content: [{ type: 'text', text: 'Echo: slow' }] });
    expect(performance.now() - t).toBeGreaterThanOrEqual(400);
    expect((await stats()).calls_delayed).toBe(1);
  });

  it('mcp_disconnect resets the session: its id gets 404, a new initialize opens a new session', async () => {
    const client = await connect();
    await echo(client);
    const res = await inject({ id: 'cut-1', type: 'mcp_disconnect' });
    expect(res.status).toBe(201);
    expect(res.body.report).toMatchObject({ sessions_closed: 1 });
    const err = await echo(client, 'after cut', 2000).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StreamableHTTPError);
    expect((err as StreamableHTTPError).code).toBe(404);
    // the agent reconnects: a fresh SDK client, a new session through the proxy to the server
    const again = await connect();
    expect(await echo(again, 'reconnected')).toEqual({ content: [{ type: 'text', text: 'Echo: reconnected' }] });
    expect(await stats()).toMatchObject({
      sessions: { open: 1, total: 2 },
      disconnects: 1,
      clients: { 'arena-test-agent': { sessions: 2, reconnects: 1 } },
    });
    expect((await stats()).clients['arena-test-agent'].last_reconnect_ms).toBeGreaterThanOrEqual(0);
    // instant: nothing stays active
    expect((await getJson(`${control.url}/v1/faults`)).faults).toEqual([]);
  });

  it('mcp_disconnect with a duration refuses new sessions with 503 and retry-after until it ends', async () => {
    await connect();
    await inject({ id: 'cut-2', type: 'mcp_disconnect', duration_ms: 1500 });
    const init = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    };
    const refused = await fetch(proxy.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify(init),
    });
    expect(refused.status).toBe(503);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    await eventually(async () => (await getJson(`${control.url}/v1/faults`)).faults.length === 0, 5000);
    expect(await echo(await connect(), 'back')).toEqual({ content: [{ type: 'text', text: 'Echo: back' }] });
  });

  it('a fault whose lease is not renewed is reverted by the proxy', async () => {
    const client = await connect();
    // long enough that a loaded machine still sees the fault once; short enough to watch it lapse
    await inject({ id: 'lease-1', type: 'tool_error', lease_ms: 1000 });
    expect((await echo(client)).isError).toBe(true);
    await eventually(async () => (await getJson(`${control.url}/v1/faults`)).faults.length === 0);
    expect(await echo(client)).toEqual({ content: [{ type: 'text', text: 'Echo: hi' }] });
  });
});

describe('MCP proxy control port and edges', () => {
  it('refuses bad fault requests with the protocol status and changes nothing', async () => {
    expect(await inject({ id: 'x1', type: 'latency' })).toMatchObject({ status: 422, body: { code: 'unsupported' } });
    const unknownParam = await inject({ id: 'x2', type: 'slow_tool', params: { latency_ms: 5 } });
    expect(unknownParam).toMatchObject({ status: 400, body: { code: 'bad_request' } });
    expect(unknownParam.body.error).toContain('params.latency_ms');
    expect((await inject({ id: 'x3', type: 'tool_error', params: { mode: 'loud' } })).body.error).toContain(
      'params.mode',
    );
    expect((await inject({ id: 'x4', type: 'tool_error', params: { code: -1 } })).body.error).toContain(
      'only with mode "jsonrpc"',
    );
    expect((await inject({ id: 'x5', type: 'slow_tool', params: { delay_ms: -1 } })).status).toBe(400);
    expect((await postJson(`${control.url}/v1/faults`, '{not json')).status).toBe(400);
    expect((await getJson(`${control.url}/v1/faults`)).faults).toEqual([]);
    const client = await connect();
    expect(await echo(client)).toEqual({ content: [{ type: 'text', text: 'Echo: hi' }] });
  });

  it('answers 404 "Session not found" for an unknown session id and names the endpoint on a wrong path', async () => {
    const unknown = await fetch(proxy.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': 'nope',
      },
      body: '{}',
    });
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: unknown }).error).toEqual({
      code: -32001,
      message: 'Session not found',
    });
    const wrong = await fetch(new URL('/other', proxy.url), { method: 'POST', body: '{}' });
    expect(wrong.status).toBe(404);
    expect(((await wrong.json()) as { error: { message: string } }).error.message).toContain('this proxy serves /mcp');
  });

  it('a control port with a token refuses requests without it (401) and applies nothing', async () => {
    const guarded = await startMcpControl(proxy, { port: 0, token: 's3cret' });
    try {
      const body = JSON.stringify({ id: 'g1', type: 'tool_error' });
      expect((await fetch(`${guarded.url}/v1/faults`, { method: 'POST', body })).status).toBe(401);
      expect(proxy.faults.list()).toEqual([]);
      const ok = await fetch(`${guarded.url}/v1/faults`, {
        method: 'POST',
        body,
        headers: { authorization: 'Bearer s3cret' },
      });
      expect(ok.status).toBe(201);
    } finally {
      await guarded.close();
    }
  });

  it('refuses a request under a foreign Host name (DNS rebinding) with 403, before any session exists', async () => {
    const { request } = await import('node:http');
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        proxy.url,
        {
          method: 'POST',
          headers: {
            host: 'evil.example:80',
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
          },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode!);
        },
      );
      req.on('error', reject);
      req.end(
        JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'page', version: '1' } },
        }),
      );
    });
    expect(status).toBe(403);
    expect((await stats()).sessions.total).toBe(0);
  });

  it('a port in use is a usage error naming the port', async () => {
    await expect(startHttpMcpProxy({ upstream: upstream.url, port: proxy.port })).rejects.toMatchObject({
      code: 'port_in_use',
      exitCode: 2,
      message: `port ${proxy.port} on 127.0.0.1 is already in use`,
    });
    await expect(startMcpControl(proxy, { port: control.port })).rejects.toMatchObject({
      code: 'port_in_use',
      exitCode: 2,
    });
  });
});
