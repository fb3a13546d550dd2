#!/usr/bin/env node
/**
 * The PostgreSQL event store against raw INSERTs into the same database, in
 * the same run (a throwaway cluster with fsync on, scripts/pg-cluster.mjs):
 *
 * 1. appends per second with 1, 4 and 16 concurrent writers (each on its own
 *    stream, optimistic expected versions), against the same number of
 *    writers doing one autocommit INSERT each into a plain table;
 * 2. latency from an append (this process, "server A") to an SSE client of
 *    another `arena serve` process on the same database ("server B"), p50/p99,
 *    against a bare NOTIFY → LISTEN round trip on the same database.
 *
 *    With BENCH_CLIENTS SSE clients on server B (default 1) it also counts
 *    the reads of arena_events server B made meanwhile (pg_stat_user_tables):
 *    one catch-up read per wake-up shared by all clients, not one per client.
 *
 * Run: npm run build && node test/bench/postgres-store.mjs
 * (BENCH_SECONDS per measurement, default 3; BENCH_EVENTS latency samples, default 300;
 * BENCH_CLIENTS SSE clients, default 1; BENCH_SKIP_THROUGHPUT=1 measures the latency only)
 */
import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { startCluster } from '../../scripts/pg-cluster.mjs';
import { printedUrl } from './printed-url.mjs';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const EVENTS = Number(process.env.BENCH_EVENTS ?? 300);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 1);
const ARENA = fileURLToPath(new URL('../../bin/arena.js', import.meta.url));
const now = () => performance.timeOrigin + performance.now();
const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const { PostgresEventStore } = await import('../../dist/events/postgres.js');
const cluster = await startCluster({ durable: true });
const cleanups = [() => cluster.stop()];
process.once('SIGINT', async () => {
  for (const c of cleanups.reverse()) await c();
  process.exit(130);
});

try {
  const admin = new pg.Client({ connectionString: cluster.url });
  await admin.connect();
  await admin.query('CREATE DATABASE bench');
  await admin.end();
  const url = cluster.urlFor('bench');

  // --- 1. throughput ---------------------------------------------------------
  const raw = new pg.Pool({ connectionString: url, max: 16 });
  await raw.query(
    'CREATE TABLE raw_events (id bigserial PRIMARY KEY, stream_id text NOT NULL, version bigint NOT NULL, type text NOT NULL, data text NOT NULL, at text NOT NULL)',
  );
  const store = new PostgresEventStore({ url, poolSize: 16 });
  await store.ready();
  const data = { agent: 'agent-1', pad: 'x'.repeat(64) };

  const measure = async (writers, appendOne) => {
    const end = Date.now() + SECONDS * 1000;
    let n = 0;
    await Promise.all(
      Array.from({ length: writers }, async (_, w) => {
        for (let i = 0; Date.now() < end; i++) {
          await appendOne(w, i);
          n++;
        }
      }),
    );
    return n / SECONDS;
  };

  console.log(`appends per second (${SECONDS}s each, fsync on)`);
  console.log('writers | raw INSERT/s | store append/s | store / raw');
  let round = 0;
  for (const writers of process.env.BENCH_SKIP_THROUGHPUT ? [] : [1, 4, 16]) {
    round++;
    const rawRate = await measure(writers, (w, i) =>
      raw.query('INSERT INTO raw_events (stream_id, version, type, data, at) VALUES ($1, $2, $3, $4, $5)', [
        `raw-${round}-${w}`,
        i + 1,
        'tick',
        JSON.stringify(data),
        new Date().toISOString(),
      ]),
    );
    const storeRate = await measure(writers, (w, i) => store.append(`s-${round}-${w}`, [{ type: 'tick', data }], i));
    console.log(
      `${String(writers).padStart(7)} | ${rawRate.toFixed(0).padStart(12)} | ${storeRate.toFixed(0).padStart(14)} | ${(storeRate / rawRate).toFixed(2)}`,
    );
  }
  await raw.end();

  // --- 2. latency to an SSE client of another server -------------------------
  const serve = spawn('node', [ARENA, 'serve', '--port', '0', '--store', url], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { PATH: process.env.PATH, NO_COLOR: '1', CI: '1' },
  });
  cleanups.push(async () => {
    serve.kill('SIGTERM');
    await new Promise((r) => serve.once('exit', r));
  });
  const serveUrl = await printedUrl(serve, /serving on (http:\/\/\S+)/);
  // every client's arrival time per event; the latency of an event is its last client's
  const arrivals = Array.from({ length: CLIENTS }, () => new Map());
  const connect = (seen) =>
    new Promise((ready) => {
      request(`${serveUrl}/arena/stream`, { headers: { Accept: 'text/event-stream' } }, (res) => {
        res.setEncoding('utf8');
        let buf = '';
        res.on('data', (chunk) => {
          const t = now();
          buf += chunk;
          for (let idx = buf.indexOf('\n\n'); idx !== -1; idx = buf.indexOf('\n\n')) {
            const frame = buf.slice(0, idx);
            buf = buf.slice(idx + 2);
            if (frame.includes('event: ready')) ready();
            const m = /^data: (.*)$/m.exec(frame);
            if (m && frame.includes('event: bench')) seen.set(JSON.parse(m[1]).data.i, t);
          }
        });
      }).end();
    });
  await Promise.all(arrivals.map(connect));
  const reads = async () => {
    // statistics reach the shared view within a second of a backend going idle
    await sleep(1500);
    const rows = await store.query(
      "SELECT COALESCE(seq_scan, 0) + COALESCE(idx_scan, 0) AS n FROM pg_stat_user_tables WHERE relname = 'arena_events'",
    );
    return Number(rows[0].n);
  };
  const readsBefore = await reads();
  const sent = [];
  let version = await store.streamVersion('arena');
  for (let i = 0; i < EVENTS; i++) {
    sent[i] = now();
    const [e] = await store.append('arena', [{ type: 'bench', data: { i } }], version);
    version = e.version;
    await sleep(5);
  }
  const deadline = Date.now() + 10_000;
  while (arrivals.some((a) => a.size < EVENTS) && Date.now() < deadline) await sleep(20);
  const readsDuring = (await reads()) - readsBefore;
  const sse = sent
    .map((t, i) => Math.max(...arrivals.map((a) => a.get(i) ?? Number.NaN)) - t)
    .filter((x) => Number.isFinite(x));

  // baseline: a bare NOTIFY from one connection to a LISTEN on another
  const listener = new pg.Client({ connectionString: url });
  const notifier = new pg.Client({ connectionString: url });
  await Promise.all([listener.connect(), notifier.connect()]);
  await listener.query('LISTEN bench');
  const rtts = [];
  for (let i = 0; i < EVENTS; i++) {
    const got = new Promise((r) => listener.once('notification', () => r(now())));
    const t = now();
    await notifier.query("SELECT pg_notify('bench', 'x')");
    rtts.push((await got) - t);
    await sleep(5);
  }
  await Promise.all([listener.end(), notifier.end()]);
  await store.close();

  console.log(
    `\nappend → ${CLIENTS} SSE client(s) of another arena serve (${sse.length}/${EVENTS} delivered to all; the last client's arrival counts)`,
  );
  console.log('                      |   p50 ms |   p99 ms');
  console.log(
    `bare NOTIFY → LISTEN  | ${pct(rtts, 50).toFixed(2).padStart(8)} | ${pct(rtts, 99).toFixed(2).padStart(8)}`,
  );
  console.log(
    `store append → SSE    | ${pct(sse, 50).toFixed(2).padStart(8)} | ${pct(sse, 99).toFixed(2).padStart(8)}`,
  );
  console.log(
    `ratio                 | ${(pct(sse, 50) / pct(rtts, 50)).toFixed(1).padStart(8)} | ${(pct(sse, 99) / pct(rtts, 99)).toFixed(1).padStart(8)}`,
  );
  console.log(
    `reads of arena_events meanwhile (all processes): ${readsDuring} for ${EVENTS} appends, ${(readsDuring / EVENTS).toFixed(2)} per append`,
  );
} finally {
  for (const c of cleanups.reverse()) await c();
}
