#!/usr/bin/env node
/**
 * CPU time per request of the Router's pipeline (CORS, shutdown gate, error boundary, API key,
 * route match, context, JSON reply) called in-process, against a bare handler that sends the
 * same JSON, measured in the same run. No sockets: on a shared machine the HTTP benchmark
 * (server-router.mjs) swings by 2x between runs, while CPU time per call is steady to a few %.
 * Run: npm run build && node test/bench/server-router-dispatch.mjs
 */
const { Router } = await import('../../dist/server/router.js');

const KEY = 'bench-key-0123456789';
const N = Number(process.env.BENCH_N ?? 200_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const payload = { total: 42, succeeded: 40, failed: 2, success_rate: 0.952 };

const router = new Router({ log: () => {} }).withApiKey(KEY);
// the same table as server-router.mjs: the arena routes plus a parameterised group
for (const p of ['/arena', '/api/v1/arena']) {
  for (const r of ['history', 'metrics', 'score', 'survival/status']) router.get(`${p}/${r}`, () => payload);
  for (const v of ['kill', 'pause', 'resume', 'slow']) router.post(`${p}/agent/{id}/${v}`, () => payload);
}
router.get('/api/v1/agents/{id}', (ctx) => ({ id: ctx.params.id }));
router.get('/api/v1/arena/stats', () => payload);

const bare = (req, res) => {
  const text = JSON.stringify(req.url.startsWith('/api/v1/agents/') ? { id: 'a-1' } : payload);
  res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
};

// a static route and a parameterised one with a query string, both authenticated
const requests = [
  { method: 'GET', url: '/api/v1/arena/stats', headers: { 'x-api-key': KEY } },
  { method: 'GET', url: '/api/v1/agents/a-1?verbose=1', headers: { 'x-api-key': KEY } },
];
let answered = 0;
const res = {
  headersSent: false,
  writableEnded: false,
  closed: false,
  writeHead(status) {
    if (status !== 200) throw new Error(`status ${status}`);
    return this;
  },
  end() {
    answered++;
  },
  once() {
    return this;
  },
};

function cpuNsPerRequest(handler) {
  const samples = [];
  for (let round = 0; round < ROUNDS; round++) {
    const start = process.cpuUsage();
    for (let i = 0; i < N; i++) for (const req of requests) handler(req, res);
    const d = process.cpuUsage(start);
    samples.push(((d.user + d.system) * 1000) / (N * requests.length));
  }
  return Math.min(...samples);
}

const routed = router.handler();
// warm both up so the JIT has compiled them before anything is timed
cpuNsPerRequest(bare);
cpuNsPerRequest(routed);
const b = cpuNsPerRequest(bare);
const r = cpuNsPerRequest(routed);
if (answered !== 4 * ROUNDS * N * requests.length) throw new Error(`answered ${answered} requests`);
console.log(`bare handler      ${b.toFixed(0)} ns CPU/request`);
console.log(`router + API key  ${r.toFixed(0)} ns CPU/request`);
console.log(
  `router overhead   ${(r - b).toFixed(0)} ns/request, ratio bare/router ${(b / r).toFixed(3)}  [best of ${ROUNDS} rounds of ${N * requests.length} requests]`,
);
