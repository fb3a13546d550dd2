#!/usr/bin/env node
/**
 * Latency the MCP proxy adds to a tools/call, no fault active: the official SDK client calls
 * server-everything's `echo` directly and through the proxy, in the same run, alternating
 * batches so both see the same machine load. Streamable HTTP (proxy in-process, server in a
 * child) and stdio (the agent launches `arena proxy mcp -- …` as it would the server).
 * Run: npm run build && node test/bench/mcp-proxy.mjs   (BENCH_CALLS=N, default 400)
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { startHttpMcpProxy } from '../../dist/proxies/mcp/index.js';

const CALLS = Number(process.env.BENCH_CALLS ?? 400);
const BATCH = 50;
const EVERYTHING = fileURLToPath(
  new URL('../../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url),
);
const LOOPBACK = fileURLToPath(new URL('../fixtures/mcp/loopback-listen.mjs', import.meta.url));
const ARENA = fileURLToPath(new URL('../../bin/arena.js', import.meta.url));

async function connect(transport) {
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(transport);
  return client;
}

/** alternating batches of echo calls; returns per-call latencies in ms for each client */
async function measure(direct, proxied) {
  const times = { direct: [], proxied: [] };
  for (const c of [direct, proxied])
    for (let i = 0; i < 20; i++) await c.callTool({ name: 'echo', arguments: { message: 'warm' } });
  for (let done = 0; done < CALLS; done += BATCH) {
    for (const [name, client] of [
      ['direct', direct],
      ['proxied', proxied],
    ]) {
      for (let i = 0; i < BATCH; i++) {
        const t = performance.now();
        await client.callTool({ name: 'echo', arguments: { message: 'bench' } });
        times[name].push(performance.now() - t);
      }
    }
  }
  return times;
}

const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
function report(mode, times) {
  const d50 = pct(times.direct, 50),
    p50 = pct(times.proxied, 50),
    d95 = pct(times.direct, 95),
    p95 = pct(times.proxied, 95);
  console.log(
    `${mode.padEnd(6)} direct p50 ${d50.toFixed(3)} ms p95 ${d95.toFixed(3)} ms | through proxy p50 ${p50.toFixed(3)} ms p95 ${p95.toFixed(3)} ms | ` +
      `added p50 ${(p50 - d50).toFixed(3)} ms, ratio ${(p50 / d50).toFixed(2)}x`,
  );
}

// streamable HTTP
const server = spawn(process.execPath, ['--import', LOOPBACK, EVERYTHING, 'streamableHttp'], {
  env: { PATH: process.env.PATH, PORT: '0' },
  stdio: ['ignore', 'ignore', 'pipe'],
});
try {
  const port = await new Promise((resolve) => {
    let seen = '';
    server.stderr.on('data', (d) => {
      seen += d;
      const m = /LISTENING (\d+)/.exec(seen);
      if (m) resolve(Number(m[1]));
    });
  });
  const upstream = `http://127.0.0.1:${port}/mcp`;
  const proxy = await startHttpMcpProxy({ upstream, port: 0 });
  const direct = await connect(new StreamableHTTPClientTransport(new URL(upstream)));
  const proxied = await connect(new StreamableHTTPClientTransport(new URL(proxy.url)));
  report('http', await measure(direct, proxied));
  await direct.close();
  await proxied.close();
  await proxy.close();
} finally {
  server.kill('SIGKILL');
}

// stdio
const env = { PATH: process.env.PATH };
const direct = await connect(
  new StdioClientTransport({ command: process.execPath, args: [EVERYTHING, 'stdio'], env, stderr: 'ignore' }),
);
const proxied = await connect(
  new StdioClientTransport({
    command: process.execPath,
    args: [ARENA, 'proxy', 'mcp', '--', process.execPath, EVERYTHING, 'stdio'],
    env,
    stderr: 'ignore',
  }),
);
report('stdio', await measure(direct, proxied));
await direct.close();
await proxied.close();
