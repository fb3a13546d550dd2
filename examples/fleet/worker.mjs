// A worker of the example fleet: does real work (a chain of SHA-256 rounds
// over the task's input), writes every finished job to its journal on disk
// before it answers, and serves the leader's duty of handing out job ids.
//   node worker.mjs --id worker-1 --port 7101 [--pid-file run/worker-1.pid]
import { createHash } from 'node:crypto';
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: { id: { type: 'string' }, port: { type: 'string' }, 'pid-file': { type: 'string' } },
});
const id = values.id;
const port = Number(values.port);
if (!id || !Number.isInteger(port)) {
  console.error('usage: worker.mjs --id ID --port PORT [--pid-file FILE]');
  process.exit(2);
}
// a name in the process list that says which worker this is, and on which port, so two copies of the
// fleet on other ports are told apart (`pid: { match: "fleet-worker worker-3 port 7103" }`);
// pm2 rewrites the command line of the processes it forks, dropping their arguments
process.title = `fleet-worker ${id} port ${port}`;
const here = dirname(fileURLToPath(import.meta.url));
const runDir = join(here, 'run');
mkdirSync(runDir, { recursive: true });
const journal = join(runDir, `journal-${id}.log`);
let nextId = 0;

function work(input, rounds) {
  let digest = String(input);
  for (let i = 0; i < rounds; i++) digest = createHash('sha256').update(digest).digest('hex');
  return digest;
}

function readJson(req) {
  return new Promise((resolve) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      try {
        resolve(JSON.parse(body || '{}'));
      } catch {
        resolve(undefined);
      }
    });
  });
}

function send(res, status, body) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

const server = http.createServer(async (req, res) => {
  if (req.method === 'GET' && req.url === '/healthz')
    return send(res, 200, { ok: true, id, pid: process.pid, uptime_ms: Math.round(process.uptime() * 1000) });
  if (req.method === 'POST' && req.url === '/work') {
    const task = await readJson(req);
    if (!task || typeof task.job !== 'number')
      return send(res, 400, { ok: false, error: 'expected {"job": number, "input": any}' });
    const digest = work(`${task.job}:${JSON.stringify(task.input ?? null)}`, 2000);
    // durable before acknowledged: the audit checks that every acknowledged job is here
    appendFileSync(journal, `${JSON.stringify({ run: task.run, job: task.job, worker: id, digest })}\n`);
    return send(res, 200, { ok: true, job: task.job, worker: id, digest });
  }
  if (req.method === 'POST' && req.url === '/next-id') {
    const body = await readJson(req);
    nextId = Math.max(nextId, Number(body?.after ?? 0)) + 1;
    return send(res, 200, { id: nextId, leader: id });
  }
  send(res, 404, { ok: false, error: 'not found' });
});

// a real worker takes a moment to come up (load a model, open connections)
const warmupMs = Number(process.env.WORKER_WARMUP_MS ?? 150);
setTimeout(() => {
  server.listen(port, '127.0.0.1', () => {
    if (values['pid-file']) {
      const file = join(here, values['pid-file']);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, String(process.pid));
    }
  });
}, warmupMs);
process.on('SIGTERM', () => server.close(() => process.exit(0)));
