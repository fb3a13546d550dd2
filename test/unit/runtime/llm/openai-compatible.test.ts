import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createLlmClient,
  createLocalModel,
  createOpenAICompatibleProvider,
  LlmError,
} from '../../../../src/runtime/llm/index.js';
import { UsageError } from '../../../../src/shared/errors.js';

type Handler = (body: any, req: IncomingMessage, res: ServerResponse) => void;

/** a real chat-completions server on loopback; each test queues how it answers */
let server: Server;
let baseUrl: string;
let handlers: Handler[];
let seen: Array<{ body: any; auth?: string; path?: string }>;

const ok: Handler = (body, _req, res) => {
  const last = body.messages[body.messages.length - 1].content;
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(
    JSON.stringify({
      id: 'chatcmpl-1',
      object: 'chat.completion',
      model: body.model,
      choices: [{ index: 0, message: { role: 'assistant', content: `server heard: ${last}` }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 },
    }),
  );
};
const status =
  (code: number, headers: Record<string, string> = {}): Handler =>
  (_b, _req, res) => {
    res.writeHead(code, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify({ error: { message: `status ${code}` } }));
  };
const never: Handler = () => undefined;

beforeEach(async () => {
  handlers = [];
  seen = [];
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const body = JSON.parse(raw);
      seen.push({ body, auth: req.headers.authorization, path: req.url });
      (handlers.shift() ?? ok)(body, req, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterEach(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const ask = (content: string) => ({ messages: [{ role: 'user' as const, content }] });

describe('createOpenAICompatibleProvider against a real HTTP server', () => {
  it('posts model and messages with the bearer key from the named env var, and parses the answer', async () => {
    const provider = createOpenAICompatibleProvider({
      baseUrl: `${baseUrl}/`,
      model: 'tiny',
      apiKeyEnv: 'TEST_LLM_KEY',
      env: { TEST_LLM_KEY: 'sk-test' },
      timeoutMs: 2000,
    });
    const answer = await provider.complete({ ...ask('hello'), maxTokens: 16 });
    expect(answer).toEqual({
      text: 'server heard: hello',
      provider: 'openai-compatible',
      model: 'tiny',
      usage: { promptTokens: 3, completionTokens: 4, totalTokens: 7 },
    });
    expect(seen[0]).toEqual({
      path: '/v1/chat/completions',
      auth: 'Bearer sk-test',
      body: { model: 'tiny', messages: [{ role: 'user', content: 'hello' }], max_tokens: 16 },
    });
  });

  it('maps HTTP statuses to error types', async () => {
    const provider = createOpenAICompatibleProvider({ baseUrl, model: 'tiny', timeoutMs: 2000 });
    const cases: Array<[number, string, boolean]> = [
      [429, 'rate_limit', true],
      [529, 'overloaded', true],
      [503, 'overloaded', true],
      [500, 'server_error', true],
      [401, 'auth', false],
      [400, 'bad_request', false],
    ];
    for (const [code, type, retryable] of cases) {
      handlers.push(status(code));
      const error = (await provider.complete(ask('x')).catch((e: unknown) => e)) as LlmError;
      expect(error).toBeInstanceOf(LlmError);
      expect([code, error.errorType, error.retryable, error.httpStatus]).toEqual([code, type, retryable, code]);
    }
    expect(seen[0]!.auth).toBeUndefined();
  });

  it('429 then success: the client retries and gets the answer', async () => {
    handlers.push(status(429, { 'retry-after': '0' }));
    const primary = createOpenAICompatibleProvider({ baseUrl, model: 'tiny', timeoutMs: 2000 });
    const client = createLlmClient({ primary, retries: 2, backoffMs: 5 });
    expect((await client.complete(ask('again'))).text).toBe('server heard: again');
    expect(seen).toHaveLength(2);
    expect(client.stats()).toMatchObject({ retries: 1, succeeded: 1, fallbacks: 0 });
  });

  it('500 on every attempt: the client falls back to the local model', async () => {
    handlers.push(status(500), status(500));
    const primary = createOpenAICompatibleProvider({ baseUrl, model: 'tiny', timeoutMs: 2000, name: 'remote' });
    const client = createLlmClient({ primary, fallback: createLocalModel(), retries: 1, backoffMs: 5 });
    const answer = await client.complete(ask('echo fallback works'));
    expect(answer).toMatchObject({ provider: 'local', text: 'fallback works' });
    expect(seen).toHaveLength(2);
    expect(client.stats()).toMatchObject({ fallbacks: 1, primaryErrors: 2, failures: 0 });
  });

  it('a server that never answers is a timeout error after timeoutMs', async () => {
    handlers.push(never);
    const provider = createOpenAICompatibleProvider({ baseUrl, model: 'tiny', timeoutMs: 80 });
    const started = performance.now();
    const error = (await provider.complete(ask('hang')).catch((e: unknown) => e)) as LlmError;
    const elapsed = performance.now() - started;
    expect(error.errorType).toBe('timeout');
    expect(error.retryable).toBe(true);
    expect(elapsed).toBeGreaterThanOrEqual(70);
    expect(elapsed).toBeLessThan(1500);
  });

  it('a refused connection is a retryable network error; bad configuration is a UsageError', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const provider = createOpenAICompatibleProvider({
      baseUrl: `http://127.0.0.1:${port}/v1`,
      model: 'tiny',
      timeoutMs: 2000,
    });
    const error = (await provider.complete(ask('x')).catch((e: unknown) => e)) as LlmError;
    expect(error.errorType).toBe('network');
    expect(() => createOpenAICompatibleProvider({ baseUrl: 'not a url', model: 'm' })).toThrow(UsageError);
    expect(() => createOpenAICompatibleProvider({ baseUrl, model: 'm', apiKeyEnv: 'NOPE_KEY', env: {} })).toThrow(
      /NOPE_KEY/,
    );
  });

  it('invalid JSON from the server is an invalid_response error', async () => {
    handlers.push((_b, _r, res) => res.end('<html>oops</html>'));
    const provider = createOpenAICompatibleProvider({ baseUrl, model: 'tiny', timeoutMs: 2000 });
    const error = (await provider.complete(ask('x')).catch((e: unknown) => e)) as LlmError;
    expect(error.errorType).toBe('invalid_response');
  });
});
