// A minimal Arena Target Protocol v1 server in plain Node (no dependencies).
// Three workers; pause_agent really stops one taking work, kill_agent stops it and a
// "supervisor" restarts it after 300 ms. Run it, then: arena target check http://127.0.0.1:9600
// (the port: ARENA_EXAMPLE_PORT or PORT, default 9600, like the other examples)
import { createServer } from 'node:http';

const agents = ['w1', 'w2', 'w3'].map((id) => ({
  id,
  role: id === 'w1' ? 'leader' : 'worker',
  status: 'running',
  restarts: 0,
}));
const faults = new Map(); // id → { fault, answer, timer }
const answered = new Map(); // id → first answer (idempotency)
const work = { requests: 0, succeeded: 0, failed: 0 };
setInterval(() => {
  work.requests++;
  agents.some((a) => a.status === 'running') ? work.succeeded++ : work.failed++;
}, 50).unref();

function revert(id) {
  const f = faults.get(id);
  if (!f) return false;
  clearTimeout(f.timer);
  faults.delete(id);
  agents.find((a) => a.id === f.fault.target_id).status = 'running';
  return true;
}
function arm(f, ms) {
  clearTimeout(f.timer);
  f.timer = setTimeout(() => revert(f.fault.id), ms);
}

const routes = {
  'GET /v1/target': () => [
    200,
    {
      protocol: 1,
      name: 'toy',
      agents,
      dag: null,
      faults: ['kill_agent', 'pause_agent'],
      workload: true,
      invariants: false,
    },
  ],
  'GET /v1/faults': () => [200, { faults: [...faults.values()].map((f) => f.fault) }],
  'GET /v1/workload': () => [200, work],
  'GET /v1/health': (q) => {
    const a = agents.find((x) => x.id === q.get('id'));
    const bad = (a ? [a] : agents).filter((x) => x.status !== 'running');
    return [200, { healthy: bad.length === 0, problems: bad.map((x) => `${x.id} is ${x.status}`) }];
  },
  'POST /v1/leases': (_q, b) => [
    200,
    { renewed: b.ids.filter((id) => faults.has(id) && (arm(faults.get(id), b.lease_ms), true)) },
  ],
  'POST /v1/faults': (_q, b) => {
    if (answered.has(b.id)) return [200, answered.get(b.id)];
    if (!b.id || !b.type) return [400, { error: 'id and type are required', code: 'bad_request' }];
    if (!['kill_agent', 'pause_agent'].includes(b.type))
      return [422, { error: `${b.type} is not supported`, code: 'unsupported' }];
    const agent = agents.find((a) => a.id === b.target_id);
    if (!agent) return [404, { error: `no agent ${b.target_id}`, code: 'not_found' }];
    const answer = { id: b.id, report: { agent: agent.id } };
    if (b.type === 'kill_agent') {
      agent.status = 'stopped';
      setTimeout(() => {
        agent.status = 'running';
        agent.restarts++;
      }, 300);
    } else {
      agent.status = 'paused';
      const f = { fault: { id: b.id, type: b.type, target_id: agent.id, started_at_ms: Date.now() } };
      faults.set(b.id, f);
      arm(f, Math.min(b.duration_ms ?? Infinity, b.lease_ms ?? 5000));
    }
    answered.set(b.id, answer);
    return [201, answer];
  },
};

createServer((req, res) => {
  const url = new URL(req.url, 'http://x');
  let body = '';
  req
    .on('data', (c) => (body += c))
    .on('end', () => {
      const del = req.method === 'DELETE' && url.pathname.startsWith('/v1/faults/');
      const route = del
        ? () => {
            const id = decodeURIComponent(url.pathname.slice(11));
            return [200, { id, reverted: revert(id) }];
          }
        : routes[`${req.method} ${url.pathname}`];
      let answer;
      try {
        answer = route
          ? route(url.searchParams, body ? JSON.parse(body) : {})
          : [404, { error: 'no such route', code: 'not_found' }];
      } catch {
        answer = [400, { error: 'body is not valid JSON', code: 'bad_request' }];
      }
      res.writeHead(answer[0], { 'content-type': 'application/json' }).end(JSON.stringify(answer[1]));
    });
}).listen(Number(process.env.ARENA_EXAMPLE_PORT || process.env.PORT || 9600), '127.0.0.1', function () {
  console.log(`toy target on http://127.0.0.1:${this.address().port}`);
});
