/**
 * `arena proxy mcp` end to end: the real bin/arena.js, a real MCP server (server-everything)
 * and the official SDK client, in both modes, plus the usage errors and their exit code.
 */
import { createServer, type Server } from 'node:net';
import { afterEach, beforeAll, afterAll, describe, expect, it } from 'vitest';
import { execa, type ResultPromise } from 'execa';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { ARENA_BIN, REPO_ROOT, arena } from '../helpers/cli.js';
import {
  EVERYTHING,
  eventually,
  getJson,
  httpClient,
  postJson,
  startEverythingHttp,
  type RunningServer,
} from '../helpers/mcp.js';

let upstream: RunningServer;
beforeAll(async () => {
  upstream = await startEverythingHttp();
});
afterAll(async () => {
  await upstream.stop();
});

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
});

/** resolves with the first match of `pattern` in what `stream` has said so far */
function waitFor(
  stream: NodeJS.ReadableStream | import('node:stream').Stream,
  pattern: RegExp,
): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const onData = (chunk: Buffer) => {
      seen += chunk.toString();
      const m = pattern.exec(seen);
      if (m) {
        stream.off('data', onData);
        resolve(m);
      }
    };
    stream.on('data', onData);
    stream.once('end', () => reject(new Error(`stream ended without ${pattern}: ${seen}`)));
  });
}

describe('arena proxy mcp: usage errors (exit 2, nothing started)', () => {
  it.each([
    [[], 'nothing to proxy'],
    [['--upstream', 'http://127.0.0.1:1/mcp', '--', 'node', 'server.js'], 'not both'],
    [['--listen', '7400', '--', 'node', 'server.js'], '--listen is for HTTP mode'],
    [['--upstream', 'not a url'], 'is not a URL'],
    [['--upstream', 'http://127.0.0.1:1/mcp', '--listen', '70000'], '--listen must be an integer from 0 to 65535'],
    [['--fault', 'kill_agent', '--', 'node', 'server.js'], 'unknown MCP fault'],
    [['--fault', 'mcp_disconnect', '--', 'node', 'server.js'], 'inject it through --control'],
    [
      ['--fault', 'slow_tool', '--mode', 'jsonrpc', '--', 'node', 'server.js'],
      '--mode applies to --fault tool_error and --fault tool_fault only',
    ],
    [['--fault', 'tool_fault', '--', 'node', 'server.js'], '--fault tool_fault needs --mode'],
    [['--fault', 'tool_fault', '--mode', 'garble', '--', 'node', 'server.js'], '--mode: expected one of truncate'],
    [
      ['--fault', 'tool_fault', '--mode', 'truncate', '--keep', '2', '--', 'node', 'x.js'],
      '--keep: expected a fraction',
    ],
    [['--fault', 'tool_fault', '--mode', 'empty', '--keep', '0.5', '--', 'node', 'x.js'], '--keep: only truncate'],
    [['--fault', 'tool_error', '--hide', 'echo', '--', 'node', 'x.js'], '--hide applies to --fault tool_fault only'],
    [
      ['--fault', 'tool_fault', '--mode', 'schema_drift', '--rename', 'echo', '--', 'node', 'x.js'],
      '--rename echo: expected TOOL.FROM=TO',
    ],
    [['--fault', 'slow_tool', '--delay', 'soon', '--', 'node', 'server.js'], 'invalid duration "soon"'],
    [['--', '/nonexistent/mcp-server'], '/nonexistent/mcp-server'],
    [['--host', '0.0.0.0', '--control', '0', '--upstream', 'http://127.0.0.1:1/mcp'], 'needs --token'],
  ])('arena proxy mcp %j', async (args, text) => {
    const r = await arena(['proxy', 'mcp', ...args]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(text);
    expect(r.stdout).toBe('');
  });

  it('a port in use is named, for --listen and for --control', async () => {
    const busy: Server = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((resolve) => busy.close(resolve)));
    const port = String((busy.address() as { port: number }).port);
    const listen = await arena(['proxy', 'mcp', '--upstream', upstream.url, '--listen', port]);
    expect(listen.exitCode).toBe(2);
    expect(listen.stderr).toContain(`--listen: port ${port} is already in use`);
    const control = await arena(['proxy', 'mcp', '--upstream', upstream.url, '--listen', '0', '--control', port]);
    expect(control.exitCode).toBe(2);
    expect(control.stderr).toContain(`--control: port ${port} is already in use`);
  });
});

describe('arena proxy mcp: start-up', () => {
  it('help loads no MCP SDK module (it is imported only when a proxy starts)', async () => {
    const r = await execa(
      'node',
      ['--import', './test/fixtures/trace-imports.mjs', ARENA_BIN, 'proxy', 'mcp', '--help'],
      { cwd: REPO_ROOT, reject: false, extendEnv: false, env: { PATH: process.env.PATH ?? '' } },
    );
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('--upstream');
    expect(r.stderr).toMatch(/^IMPORT commander$/m); // the trace works
    expect(r.stderr).not.toContain('IMPORT @modelcontextprotocol');
  });
});

describe('arena proxy mcp --upstream (streamable HTTP)', () => {
  it('relays through the CLI with a --fault active, reports stats on the control port, stops on SIGTERM with exit 0', async () => {
    const proc: ResultPromise = execa(
      'node',
      [
        ARENA_BIN,
        'proxy',
        'mcp',
        '--upstream',
        upstream.url,
        '--listen',
        '0',
        '--control',
        '0',
        '--fault',
        'tool_error',
        '--mode',
        'jsonrpc',
        '--tool',
        'echo',
      ],
      {
        cwd: REPO_ROOT,
        reject: false,
        extendEnv: false,
        env: { PATH: process.env.PATH ?? '', NO_COLOR: '1', CI: '1' },
      },
    );
    cleanups.push(async () => proc.kill('SIGKILL'));
    const m = await waitFor(proc.stderr!, /listening on (\S+) → .*; control on (\S+)\n/);
    const [, url, controlUrl] = m;
    const client = await httpClient(url!);
    cleanups.push(() => client.close());
    const err = await client.callTool({ name: 'echo', arguments: { message: 'x' } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(McpError);
    expect(JSON.stringify((await client.callTool({ name: 'get-sum', arguments: { a: 1, b: 2 } })).content)).toContain(
      '3',
    );
    expect(await getJson(`${controlUrl}/v1/stats`)).toMatchObject({
      mode: 'http',
      tool_calls: 2,
      errors_injected: 1,
      active_faults: 1,
    });
    proc.kill('SIGTERM');
    const result = await proc;
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('MCP proxy stopped: 2 tool calls, 1 errors injected');
  });
});

describe('arena proxy mcp -- COMMAND (stdio), launched by the agent', () => {
  async function agentLaunchesProxy(flags: string[] = []) {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [ARENA_BIN, 'proxy', 'mcp', '--control', '0', ...flags, '--', process.execPath, EVERYTHING, 'stdio'],
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH ?? '', NO_COLOR: '1', CI: '1' },
      stderr: 'pipe',
    });
    const controlUrl = waitFor(transport.stderr!, /control on (\S+)\n/).then((m) => m[1]!);
    const client = new Client({ name: 'arena-test-agent', version: '1.0.0' });
    const problems: Error[] = [];
    client.onerror = (e) => problems.push(e);
    let isClosed = false;
    client.onclose = () => (isClosed = true);
    await client.connect(transport);
    cleanups.push(() => client.close());
    return { client, control: await controlUrl, problems, isClosed: () => isClosed };
  }

  it('--fault tool_fault --mode inject: the echo tool answers with the canary appended', async () => {
    const agent = await agentLaunchesProxy([
      '--fault',
      'tool_fault',
      '--mode',
      'inject',
      '--tool',
      'ech?',
      '--seed',
      '7',
    ]);
    const text = (
      (await agent.client.callTool({ name: 'echo', arguments: { message: 'hi' } })).content as Array<{
        text: string;
      }>
    )[0]!.text;
    expect(text.startsWith('Echo: hi')).toBe(true);
    expect(text).toContain('ARENA-CANARY-cli-1-tool_fault');
    const stats = await getJson(`${agent.control}/v1/stats`);
    expect(stats).toMatchObject({ results_changed: 1 });
    expect(stats.markers).toEqual([expect.objectContaining({ kind: 'canary', source: 'mcp' })]);
    expect(agent.problems).toEqual([]);
  });

  it('passes calls through, holds one until the client times out, and a disconnect is survived by launching again', async () => {
    const agent = await agentLaunchesProxy();
    expect(await agent.client.callTool({ name: 'echo', arguments: { message: 'one' } })).toEqual({
      content: [{ type: 'text', text: 'Echo: one' }],
    });

    expect(
      (await postJson(`${agent.control}/v1/faults`, { id: 'hold', type: 'tool_timeout', duration_ms: 60_000 })).status,
    ).toBe(201);
    const held = await agent.client
      .callTool({ name: 'echo', arguments: { message: 'two' } }, undefined, { timeout: 300 })
      .catch((e: unknown) => e);
    expect((held as McpError).code).toBe(-32001);
    await eventually(async () => (await getJson(`${agent.control}/v1/stats`)).calls_dropped === 1);
    expect((await postJson(`${agent.control}/v1/reset`, {})).body).toEqual({ reverted: 1 });

    const cut = await postJson(`${agent.control}/v1/faults`, { id: 'cut', type: 'mcp_disconnect' });
    expect(cut.status).toBe(201);
    await eventually(() => agent.isClosed());
    // nothing but MCP messages ever reached the agent on the proxy's stdout
    expect(agent.problems).toEqual([]);

    const again = await agentLaunchesProxy();
    expect(await again.client.callTool({ name: 'echo', arguments: { message: 'three' } })).toEqual({
      content: [{ type: 'text', text: 'Echo: three' }],
    });
  });
});
