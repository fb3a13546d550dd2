// A tiny stand-in for an OpenAI-compatible API, so the example runs without a
// key or the internet: POST /v1/chat/completions answers a chat.completion
// echoing the last user message. GET /stats counts what reached it, and how
// many calls came from the official openai SDK (it sends x-stainless-lang),
// so a test can tell the agent's calls really went SDK → proxy → here; with
// STATS_FILE set, the same document is written there when it is stopped.
//   PORT=7350 [STATS_FILE=/tmp/stats.json] node fake-llm.mjs
import { writeFileSync } from 'node:fs';
import http from 'node:http';

const port = Number(process.env.PORT);
if (!Number.isInteger(port) || port <= 0) {
  console.error('fake-llm: set PORT to the port to listen on');
  process.exit(2);
}

const stats = { requests: 0, completions: 0, sdk_requests: 0, clients: {} };

const server = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (req.method === 'GET' && url.pathname === '/stats') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(stats));
      return;
    }
    stats.requests++;
    if (req.method !== 'POST' || url.pathname !== '/v1/chat/completions') {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          error: {
            message: `no route ${req.method} ${url.pathname}`,
            type: 'invalid_request_error',
            param: null,
            code: null,
          },
        }),
      );
      return;
    }
    let body;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          error: { message: 'body is not JSON', type: 'invalid_request_error', param: null, code: null },
        }),
      );
      return;
    }
    stats.completions++;
    if (req.headers['x-stainless-lang']) stats.sdk_requests++;
    const client = String(req.headers['x-arena-client'] ?? 'unnamed');
    stats.clients[client] = (stats.clients[client] ?? 0) + 1;
    const last = Array.isArray(body.messages) ? body.messages.at(-1)?.content : undefined;
    res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': `req_fake_${stats.completions}` });
    res.end(
      JSON.stringify({
        id: `chatcmpl-fake-${stats.completions}`,
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model: body.model ?? 'fake-model',
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content: `echo: ${String(last ?? '')}` },
            finish_reason: 'stop',
            logprobs: null,
          },
        ],
        usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
      }),
    );
  });
});

server.listen(port, '127.0.0.1');
// the start command's group gets SIGTERM at the end of a run: close and go
process.on('SIGTERM', () => {
  if (process.env.STATS_FILE) writeFileSync(process.env.STATS_FILE, JSON.stringify(stats));
  server.close(() => process.exit(0));
  // keep-alive sockets would hold close() open until the grace runs out
  server.closeAllConnections();
});
