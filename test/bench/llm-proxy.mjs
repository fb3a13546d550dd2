#!/usr/bin/env node
/**
 * What the LLM fault proxy costs with no fault active: added latency (p50,
 * p99) and throughput for non-streamed and streamed chat completions through
 * the proxy, against the same stand-in upstream called directly in the same
 * run. The upstream and the proxy each run in their own child process so the
 * load generator does not share their event loops.
 * Kinds: json (one small completion), stream (20 SSE events written at
 * once: CPU-bound, the proxy's worst case), paced (20 events 2 ms apart, as
 * a model streams tokens: the upstream sets the pace, as with a real API), large (one completion
 * asked with a 256 KiB conversation).
 * A third side, "matcher", is the same proxy process with a fault active that matches no request
 * (llm_failure for a model nobody asks for): every request's body is read as far as its model, then passed
 * through. The fault is applied for the matcher's rounds and reverted for the plain proxy's, so both sides
 * share one process, socket and warm-up: a second proxy process showed up to 14% between two identical
 * proxies (placement, not code). Its p50 against the plain proxy's is what quiet faults cost the requests
 * they do not touch.
 * Run: npm run build && node test/bench/llm-proxy.mjs
 * (BENCH_SECONDS per throughput run, default 4; BENCH_CONNECTIONS, default 32; BENCH_CONTROL=1 runs the
 * matcher rounds with no fault: the same proxy twice, so its "vs the proxy" figure is the machine's noise)
 */
import { fork } from 'node:child_process';
import { Agent, request } from 'node:http';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const LATENCY_ROUNDS = 5;
const LATENCY_PER_ROUND = 400;
const STREAM_EVENTS = 20;
const PACE_MS = 2;

function start(role, ...args) {
  const child = fork(fileURLToPath(import.meta.url), [role, ...args], { stdio: 'inherit' });
  return new Promise((resolve) => child.once('message', ({ port }) => resolve({ child, port })));
}

const BODY = {
  json: JSON.stringify({ model: 'bench', messages: [{ role: 'user', content: 'hi' }] }),
  stream: JSON.stringify({ model: 'bench', stream: true, messages: [{ role: 'user', content: 'hi' }] }),
  paced: JSON.stringify({ model: 'paced', stream: true, messages: [{ role: 'user', content: 'hi' }] }),
  // a long conversation (256 KiB): what reading a whole body for its model costs shows here
  large: JSON.stringify({ model: 'bench', messages: [{ role: 'user', content: 'x'.repeat(256 * 1024) }] }),
};

/** one whole request (until the last byte of the answer), in ms */
function once(agent, port, body) {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const req = request(
      {
        agent,
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/v1/chat/completions',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        res.on('data', () => {});
        res.on('end', () => resolve(Number(process.hrtime.bigint() - t0) / 1e6));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

const SIDES = ['direct', 'proxy', 'matcher'];

/** the proxy child applies (true) or reverts (false) the matcher fault; resolves once it has */
function setMatcher(child, on) {
  return new Promise((resolve) => {
    child.once('message', resolve);
    child.send({ matcher: on });
  });
}

async function latency(ports, kind, proxyChild) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const samples = { direct: [], proxy: [], matcher: [] };
  const perRound = kind === 'paced' || kind === 'large' ? 40 : LATENCY_PER_ROUND;
  for (let i = 0; i < (kind === 'paced' || kind === 'large' ? 10 : 200); i++)
    for (const side of SIDES) await once(agent, ports[side], BODY[kind]);
  // interleaved rounds in a rotating order, so drift on a shared machine hits every side alike
  for (let round = 0; round < LATENCY_ROUNDS * 2; round++) {
    const order = [...SIDES.slice(round % 3), ...SIDES.slice(0, round % 3)];
    for (const side of order) {
      if (side === 'matcher') await setMatcher(proxyChild, true);
      for (let i = 0; i < perRound / 2; i++) samples[side].push(await once(agent, ports[side], BODY[kind]));
      if (side === 'matcher') await setMatcher(proxyChild, false);
    }
  }
  agent.destroy();
  const out = {};
  for (const side of SIDES) {
    const sorted = samples[side].sort((a, b) => a - b);
    out[side] = { p50: pct(sorted, 50), p99: pct(sorted, 99) };
  }
  return out;
}

function throughput(port, kind) {
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: `http://127.0.0.1:${port}/v1/chat/completions`,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: BODY[kind],
        connections: CONNECTIONS,
        duration: SECONDS,
      },
      (err, result) =>
        err
          ? reject(err)
          : resolve({
              rps: result.requests.average,
              bytes: result.throughput.average,
              errors: result.errors + result.non2xx,
            }),
    );
  });
}

async function main() {
  const upstream = await start('upstream');
  const proxy = await start('proxy', `http://127.0.0.1:${upstream.port}`);
  // the matcher side is the same proxy with its fault applied for its rounds
  const ports = { direct: upstream.port, proxy: proxy.port, matcher: proxy.port };
  console.log(
    `LLM proxy bench: node ${process.version}, ${STREAM_EVENTS} SSE events per streamed answer, ${CONNECTIONS} connections x ${SECONDS}s per throughput run`,
  );
  try {
    for (const kind of ['json', 'stream', 'paced', 'large']) {
      const lat = await latency(ports, kind, proxy.child);
      const addedP50 = lat.proxy.p50 - lat.direct.p50;
      const addedP99 = lat.proxy.p99 - lat.direct.p99;
      console.log(
        `${kind.padEnd(6)} latency  direct p50 ${lat.direct.p50.toFixed(3)} ms p99 ${lat.direct.p99.toFixed(3)} ms | proxy p50 ${lat.proxy.p50.toFixed(3)} ms p99 ${lat.proxy.p99.toFixed(3)} ms | added p50 ${addedP50.toFixed(3)} ms p99 ${addedP99.toFixed(3)} ms | ratio p50 ${(lat.proxy.p50 / lat.direct.p50).toFixed(2)}x`,
      );
      console.log(
        `${kind.padEnd(6)} matcher  p50 ${lat.matcher.p50.toFixed(3)} ms p99 ${lat.matcher.p99.toFixed(3)} ms | vs the proxy with no fault: p50 ${(lat.matcher.p50 - lat.proxy.p50).toFixed(3)} ms (${((lat.matcher.p50 / lat.proxy.p50 - 1) * 100).toFixed(1)}%)`,
      );
      const direct = await throughput(ports.direct, kind);
      const proxied = await throughput(ports.proxy, kind);
      console.log(
        `${kind.padEnd(6)} throughput direct ${direct.rps.toFixed(0)} req/s | proxy ${proxied.rps.toFixed(0)} req/s | ratio ${(proxied.rps / direct.rps).toFixed(2)}x (errors: direct ${direct.errors}, proxy ${proxied.errors})`,
      );
    }
  } finally {
    proxy.child.kill();
    upstream.child.kill();
  }
}

// the same file is the load generator, the upstream and the proxy (by argv), each its own process
if (process.argv[2] === 'upstream') {
  const { createServer } = await import('node:http');
  const chunk = (i) =>
    `data: ${JSON.stringify({ id: 'chatcmpl-b', object: 'chat.completion.chunk', created: 1, model: 'bench', choices: [{ index: 0, delta: { content: `tok${i}` }, finish_reason: null }] })}\n\n`;
  const completion = JSON.stringify({
    id: 'chatcmpl-b',
    object: 'chat.completion',
    created: 1,
    model: 'bench',
    choices: [
      { index: 0, message: { role: 'assistant', content: 'Hello from the bench upstream' }, finish_reason: 'stop' },
    ],
    usage: { prompt_tokens: 5, completion_tokens: 6, total_tokens: 11 },
  });
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      if (body.includes('"model":"paced"')) {
        // a real model's pacing: tokens a few ms apart, so the upstream, not the CPU, sets the pace
        res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
        let i = 0;
        const tick = () => {
          if (i === STREAM_EVENTS) return res.end('data: [DONE]\n\n');
          res.write(chunk(i++));
          setTimeout(tick, PACE_MS);
        };
        tick();
      } else if (body.includes('"stream":true')) {
        res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
        for (let i = 0; i < STREAM_EVENTS; i++) res.write(chunk(i));
        res.end('data: [DONE]\n\n');
      } else {
        res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(completion) });
        res.end(completion);
      }
    });
  });
  server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
} else if (process.argv[2] === 'proxy') {
  const { startLlmProxy } = await import('../../dist/proxies/llm/index.js');
  const proxy = await startLlmProxy({ listen: 0, upstream: process.argv[3], api: 'openai' });
  // the matcher rounds: a fault active that matches no request, applied and reverted on the bench's word
  let applied;
  process.on('message', async ({ matcher }) => {
    if (matcher && process.env.BENCH_CONTROL !== '1')
      applied = await proxy.applyFault({
        id: 'bench-matcher',
        type: 'llm_failure',
        params: { error_type: 'wrong_value', match: { model: 'no-such-model' } },
        lease_ms: 24 * 60 * 60 * 1000,
      });
    if (!matcher && applied) {
      await applied.revert?.();
      applied = undefined;
    }
    process.send({ done: true });
  });
  process.send({ port: proxy.port });
} else {
  await main();
}
