#!/usr/bin/env node
/**
 * Requests/s of an authenticated GET through the Router against a bare
 * node:http handler answering the same JSON, measured in the same run with
 * autocannon. Each server runs in its own child process so the load
 * generator does not share its event loop. Run: npm run build && node test/bench/server-router.mjs
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const DURATION = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const KEY = 'bench-key-0123456789';

if (process.argv[2] === 'server') {
  const { createServer } = await import('node:http');
  const kind = process.argv[3];
  const payload = { total: 42, succeeded: 40, failed: 2, success_rate: 0.952 };
  let handler;
  if (kind === 'bare') {
    handler = (req, res) => {
      if (req.method === 'GET' && req.url === '/api/v1/arena/stats') {
        const text = JSON.stringify(payload);
        res.writeHead(200, {
          'Content-Type': 'application/json; charset=utf-8',
          'Content-Length': Buffer.byteLength(text),
        });
        res.end(text);
      } else {
        res.writeHead(404);
        res.end();
      }
    };
  } else {
    const { Router } = await import('../../dist/server/router.js');
    const router = new Router({ log: () => {} }).withApiKey(KEY);
    // a realistic table: the arena routes plus a few parameterised groups
    for (const p of ['/arena', '/api/v1/arena']) {
      for (const r of ['history', 'metrics', 'score', 'survival/status']) router.get(`${p}/${r}`, () => payload);
      for (const v of ['kill', 'pause', 'resume', 'slow']) router.post(`${p}/agent/{id}/${v}`, () => payload);
    }
    router.get('/api/v1/agents/{id}', (ctx) => ({ id: ctx.params.id }));
    router.get('/arena/stats', () => payload);
    router.get('/api/v1/arena/stats', () => payload);
    handler = router.handler();
  }
  const server = createServer(handler);
  server.keepAliveTimeout = 10_000;
  // server CPU per request is the figure background load on the machine disturbs least
  let cpu;
  process.on('message', (m) => {
    if (m === 'cpu-start') cpu = process.cpuUsage();
    else if (m === 'cpu-stop') {
      const d = process.cpuUsage(cpu);
      process.send({ cpu_us: d.user + d.system });
    }
  });
  server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
} else {
  const self = fileURLToPath(import.meta.url);
  const measure = async (kind) => {
    const child = fork(self, ['server', kind], { stdio: 'inherit' });
    const { port } = await new Promise((resolve) => child.once('message', resolve));
    const opts = {
      url: `http://127.0.0.1:${port}/api/v1/arena/stats`,
      connections: CONNECTIONS,
      pipelining: 1,
      headers: { 'X-API-Key': KEY },
    };
    await autocannon({ ...opts, duration: 1 }); // warm-up
    child.send('cpu-start');
    const result = await autocannon({ ...opts, duration: DURATION });
    child.send('cpu-stop');
    const { cpu_us } = await new Promise((resolve) => child.once('message', resolve));
    child.kill();
    if (result.non2xx > 0 || result.errors > 0)
      throw new Error(`${kind}: ${result.non2xx} non-2xx, ${result.errors} errors`);
    return {
      kind,
      rps: result.requests.average,
      p99_ms: result.latency.p99,
      cpu_us_per_req: cpu_us / result.requests.total,
    };
  };
  // alternate the two so background load on the machine hits both alike; keep each one's best round
  const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
  let bare, routed;
  for (let i = 0; i < ROUNDS; i++) {
    const b = await measure('bare');
    const r = await measure('router');
    console.log(
      `round ${i + 1}: bare ${b.rps.toFixed(0)} req/s (${b.cpu_us_per_req.toFixed(1)} µs CPU/req), router ${r.rps.toFixed(0)} req/s (${r.cpu_us_per_req.toFixed(1)} µs CPU/req), ratio ${(r.rps / b.rps).toFixed(3)}`,
    );
    if (!bare || b.rps > bare.rps) bare = b;
    if (!routed || r.rps > routed.rps) routed = r;
  }
  const ratio = routed.rps / bare.rps;
  console.log(
    `bare node:http     ${bare.rps.toFixed(0)} req/s  p99 ${bare.p99_ms} ms  ${bare.cpu_us_per_req.toFixed(1)} µs server CPU/req`,
  );
  console.log(
    `router + API key   ${routed.rps.toFixed(0)} req/s  p99 ${routed.p99_ms} ms  ${routed.cpu_us_per_req.toFixed(1)} µs server CPU/req`,
  );
  console.log(
    `CPU ratio bare/router ${(bare.cpu_us_per_req / routed.cpu_us_per_req).toFixed(3)} (1.0 = no router overhead)`,
  );
  console.log(
    `ratio router/bare  ${ratio.toFixed(3)} (aim >= 0.8)  [best of ${ROUNDS} rounds of ${DURATION}s, ${CONNECTIONS} connections]`,
  );
}
