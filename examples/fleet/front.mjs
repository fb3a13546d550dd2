// The fleet's front door: spreads tasks over the healthy workers, gets each
// job's id from the elected leader, and keeps the list of acknowledged jobs
// that /audit checks against the workers' journals on disk.
//   node front.mjs --port 7000 --workers worker-1=7101,worker-2=7102,worker-3=7103
import { randomUUID } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import http from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { port: { type: 'string' }, workers: { type: 'string' } } });
const port = Number(values.port);
const workers = (values.workers ?? '')
  .split(',')
  .filter(Boolean)
  .map((w) => {
    const [id, p] = w.split('=');
    return { id, port: Number(p), healthy: false };
  });
if (!Number.isInteger(port) || workers.length === 0) {
  console.error('usage: front.mjs --port PORT --workers ID=PORT,…');
  process.exit(2);
}
const runDir = join(dirname(fileURLToPath(import.meta.url)), 'run');
// jobs are numbered per run of the front door; journals outlive runs, so entries carry this run's token
const run = randomUUID();
const acked = [];
let leader;
let lastJob = 0;
let turn = 0;

function call(worker, method, path, body, timeoutMs) {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port: worker.port,
        method,
        path,
        agent: false,
        headers: { 'content-type': 'application/json' },
      },
      (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () =>
          res.statusCode === 200 ? resolve(JSON.parse(text)) : reject(new Error(`${worker.id}: ${res.statusCode}`)),
        );
      },
    );
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`${worker.id}: timeout`)));
    req.on('error', (err) => {
      // refused: the request never reached the worker, so trying another one cannot duplicate the job
      err.refused = err.code === 'ECONNREFUSED';
      reject(err);
    });
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

// health checks every 100 ms; the leader stays leader while healthy, else the first healthy worker takes over.
// A refused connection (a dead worker) counts at once; a timeout (a stopped worker, or this process itself
// starved of CPU for a moment) only on the second in a row, so one slow tick does not depose every worker.
setInterval(async () => {
  await Promise.all(
    workers.map(async (w) => {
      const ok = await call(w, 'GET', '/healthz', undefined, 300).then(
        () => true,
        (err) => (err.refused ? 'refused' : false),
      );
      w.timeouts = ok === false ? (w.timeouts ?? 0) + 1 : 0;
      w.healthy = ok === true || (ok === false && w.timeouts < 2 && w.healthy);
    }),
  );
  const current = workers.find((w) => w.id === leader);
  if (!current?.healthy) leader = workers.find((w) => w.healthy)?.id;
}, 100).unref();

async function runTask(input) {
  const lead = workers.find((w) => w.id === leader);
  if (!lead) throw new Error('no leader');
  const { id } = await call(lead, 'POST', '/next-id', { after: lastJob }, 300);
  lastJob = Math.max(lastJob, id);
  const healthy = workers.filter((w) => w.healthy);
  if (healthy.length === 0) throw new Error('no healthy worker');
  let lastError;
  // a task is not idempotent: it is retried on another worker only when the first one refused the
  // connection; after a timeout or a reset the worker may have done it, so the answer is an honest 503
  for (let attempt = 0; attempt < Math.min(2, healthy.length); attempt++) {
    const w = healthy[turn++ % healthy.length];
    try {
      const done = await call(w, 'POST', '/work', { run, job: id, input }, 500);
      acked.push({ job: id, worker: done.worker });
      return done;
    } catch (err) {
      lastError = err;
      if (!err.refused) break;
    }
  }
  throw lastError;
}

function audit() {
  const seen = new Set();
  let files = [];
  try {
    files = readdirSync(runDir).filter((f) => f.startsWith('journal-'));
  } catch {}
  for (const f of files) {
    for (const line of readFileSync(join(runDir, f), 'utf8').split('\n')) {
      if (!line) continue;
      try {
        const e = JSON.parse(line);
        if (e.run === run) seen.add(`${e.worker}:${e.job}`);
      } catch {}
    }
  }
  const lost = acked.filter((a) => !seen.has(`${a.worker}:${a.job}`));
  return { acked: acked.length, lost: lost.length, lost_jobs: lost.slice(0, 10) };
}

function send(res, status, body) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

http
  .createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/healthz') return send(res, 200, { ok: true });
    if (req.method === 'GET' && req.url === '/leader') return send(res, 200, { leader_id: leader ?? null });
    if (req.method === 'GET' && req.url === '/audit') return send(res, 200, audit());
    if (req.method === 'POST' && req.url === '/task') {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        let input;
        try {
          input = JSON.parse(body || '{}');
        } catch {
          return send(res, 400, { ok: false, error: 'body is not JSON' });
        }
        runTask(input).then(
          (done) => send(res, 200, { ok: true, job: done.job, worker: done.worker }),
          (err) => send(res, 503, { ok: false, error: err.message }),
        );
      });
      return;
    }
    send(res, 404, { ok: false, error: 'not found' });
  })
  .listen(port, '127.0.0.1');
process.on('SIGTERM', () => process.exit(0));
