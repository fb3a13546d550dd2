// An example LLM agent: each task is one chat completion through the official
// openai SDK, pointed at the arena's LLM fault proxy by OPENAI_BASE_URL. It has
// no fallback provider: when the SDK gives up (after AGENT_MAX_RETRIES retries,
// default 1) the task fails honestly with 503, so an llm_failure shows in availability.
// It forwards the arena's trial marks (x-arena-trial, traceparent) from the task
// request to its LLM calls, so `arena trials` can tell which trial made each call.
// AGENT_BLIND_RETRY=1 makes it the naive variant: no SDK backoff, up to 20 calls
// back to back until one succeeds (the runaway `arena trials` flags).
//   PORT=7351 OPENAI_BASE_URL=http://127.0.0.1:7352/v1 [AGENT_MAX_RETRIES=5] node agent.mjs
//   POST /task {"q": "…"} → 200 {ok: true, answer} | 503 {ok: false, error}
//   GET /healthz → 200 (the process is up; its LLM calls are judged by the arena's probe)
import http from 'node:http';
import OpenAI from 'openai';

const port = Number(process.env.PORT);
if (!Number.isInteger(port) || port <= 0 || !process.env.OPENAI_BASE_URL) {
  console.error('agent: set PORT and OPENAI_BASE_URL');
  process.exit(2);
}
// the SDK's own retry setting: how patiently a task waits out an LLM outage before it fails
const maxRetries = Number(process.env.AGENT_MAX_RETRIES || 1);
if (!Number.isInteger(maxRetries) || maxRetries < 0) {
  console.error(`agent: AGENT_MAX_RETRIES must be a whole number >= 0, got ${process.env.AGENT_MAX_RETRIES}`);
  process.exit(2);
}

const blindRetry = process.env.AGENT_BLIND_RETRY === '1';
const BLIND_ATTEMPTS = 20;

const client = new OpenAI({
  baseURL: process.env.OPENAI_BASE_URL,
  apiKey: process.env.OPENAI_API_KEY ?? 'test',
  maxRetries: blindRetry ? 0 : maxRetries,
  timeout: 2000,
  // names this agent in the proxy's per-client stats (retries, retry-after honoured)
  defaultHeaders: { 'x-arena-client': process.env.AGENT_ID ?? 'llm-agent' },
});
const model = process.env.AGENT_MODEL ?? 'gpt-4o-mini';

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

/** the trial marks of the task request, passed on to every LLM call it makes */
function trialHeaders(req) {
  const headers = {};
  for (const name of ['x-arena-trial', 'traceparent'])
    if (typeof req.headers[name] === 'string') headers[name] = req.headers[name];
  return headers;
}

async function complete(question, headers) {
  const body = { model, messages: [{ role: 'user', content: question }] };
  if (!blindRetry) return client.chat.completions.create(body, { headers });
  let last;
  for (let attempt = 0; attempt < BLIND_ATTEMPTS; attempt++) {
    try {
      return await client.chat.completions.create(body, { headers });
    } catch (err) {
      last = err;
    }
  }
  throw last;
}

const server = http.createServer(async (req, res) => {
  if (req.method === 'GET' && req.url === '/healthz') return send(res, 200, { ok: true });
  if (req.method !== 'POST' || req.url !== '/task')
    return send(res, 404, { ok: false, error: `no route ${req.method} ${req.url}` });
  const task = await readJson(req);
  if (!task || typeof task !== 'object') return send(res, 400, { ok: false, error: 'body: expected a JSON object' });
  try {
    const completion = await complete(String(task.q ?? 'ping'), trialHeaders(req));
    send(res, 200, { ok: true, answer: completion.choices[0]?.message?.content ?? '' });
  } catch (err) {
    // the SDK's own error after its retries: RateLimitError, InternalServerError, APIConnectionTimeoutError, …
    send(res, 503, { ok: false, error: `${err?.constructor?.name ?? 'Error'}: ${err?.message ?? String(err)}` });
  }
});

server.listen(port, '127.0.0.1');
process.on('SIGTERM', () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
});
