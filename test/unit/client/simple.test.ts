import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SimpleClient as SimpleClientType } from '../../../src/index.js';
import { pkg } from './pkg.js';

const { SimpleClient, NotFoundError, UsageError } = pkg;

let dir: string | undefined;
let server: Server | undefined;
let simple: SimpleClientType | undefined;
afterEach(async () => {
  await simple?.close();
  simple = undefined;
  if (server) await new Promise((resolve) => server!.close(resolve));
  server = undefined;
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

async function configFile(text: string): Promise<string> {
  dir ??= await mkdtemp(join(tmpdir(), 'simple-client-'));
  const file = join(dir, 'client.yaml');
  await writeFile(file, text);
  return file;
}

async function body(req: IncomingMessage): Promise<any> {
  let text = '';
  for await (const chunk of req) text += chunk;
  return JSON.parse(text);
}

describe('SimpleClient', () => {
  it('works offline with the default local model', async () => {
    const file = await configFile(`agents:
  - id: math
    system_prompt: You compute.
  - id: parrot
`);
    simple = await SimpleClient.fromConfigFile(file);
    expect(simple.agents()).toEqual(['math', 'parrot']);
    expect((await simple.execute('What is 12 / 4?')).text).toBe('The answer is 3.');
    const echoed = await simple.executeWithAgent('parrot', 'repeat: hello there');
    expect(echoed).toMatchObject({ agent_id: 'parrot', text: 'hello there', provider: 'local' });
    await expect(simple.executeWithAgent('nobody', 'hi')).rejects.toBeInstanceOf(NotFoundError);
    const chat = await simple.chat([{ role: 'user', content: 'echo direct' }]);
    expect(chat.text).toBe('direct');
  });

  it('talks to an OpenAI-compatible server with the key from the environment, and falls back when it fails', async () => {
    const seen: Array<{ auth?: string; model: string; messages: unknown[] }> = [];
    let failing = false;
    server = createServer(async (req, res) => {
      const json = await body(req);
      seen.push({ auth: req.headers.authorization, model: json.model, messages: json.messages });
      if (failing) {
        res
          .writeHead(503, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: { message: 'overloaded' } }));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          id: 'x',
          object: 'chat.completion',
          model: json.model,
          choices: [
            {
              index: 0,
              message: { role: 'assistant', content: `remote says hi to ${json.messages.at(-1).content}` },
              finish_reason: 'stop',
            },
          ],
          usage: { prompt_tokens: 3, completion_tokens: 5, total_tokens: 8 },
        }),
      );
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    const file = await configFile(`llm:
  provider: openai-compatible
  model: tiny-1
  base_url: http://127.0.0.1:${port}/v1
  api_key_env: TEST_LLM_KEY
  timeout_ms: 5s
  retries: 1
  backoff_ms: 1
  fallback: { provider: local }
agents:
  - id: helper
    system_prompt: Be kind.
`);
    simple = await SimpleClient.fromConfigFile(file, { env: { TEST_LLM_KEY: 'sk-test-123' } });
    const answer = await simple.execute('Ana');
    expect(answer).toMatchObject({ text: 'remote says hi to Ana', provider: 'openai-compatible', model: 'tiny-1' });
    expect(seen[0]).toEqual({
      auth: 'Bearer sk-test-123',
      model: 'tiny-1',
      messages: [
        { role: 'system', content: 'Be kind.' },
        { role: 'user', content: 'Ana' },
      ],
    });

    failing = true;
    const fallback = await simple.execute('What is 2 * 21?');
    expect(fallback).toMatchObject({ provider: 'local-fallback', text: 'The answer is 42.' });
    expect(seen).toHaveLength(3); // one call + one retry before falling back
  });

  it('rejects a missing API key variable with a clear error', async () => {
    const file = await configFile(
      `llm: { provider: openai-compatible, model: m, base_url: "http://127.0.0.1:1/v1", api_key_env: NOT_SET_ANYWHERE }\n`,
    );
    simple = await SimpleClient.fromConfigFile(file, { env: {} });
    await expect(simple.execute('hi')).rejects.toThrow(/NOT_SET_ANYWHERE/);
  });

  it('reports every config problem with file, line and column', async () => {
    const file = await configFile(`llm:
  provider: openai-compatible
  timeout_ms: soon
agents:
  - id: a
    temperature: 2
  - id: a
`);
    const error = await SimpleClient.fromConfigFile(file).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    const message = (error as Error).message;
    expect(message).toContain(`${file}:2:3 llm.base_url: required for provider openai-compatible`);
    expect(message).toContain(`${file}:3:15 llm.timeout_ms: must be milliseconds or a duration`);
    expect(message).toContain(`${file}:6:5 agents[0].temperature: unknown key`);
    expect(message).toContain(`${file}:7:9 agents[1].id: duplicate agent id 'a'`);
    await expect(SimpleClient.fromConfigFile(join(dir!, 'missing.yaml'))).rejects.toBeInstanceOf(NotFoundError);
    expect(() => SimpleClient.fromConfigText('llm: [unclosed\n', 'inline.yaml')).toThrow(/inline\.yaml:\d+:\d+/);
    expect(() => SimpleClient.fromConfigText('env: { A: b }\n', 'c.yaml')).toThrow(
      /c\.yaml:1:1 env: unknown key 'env' \(it can only be passed in code\)/,
    );
  });
});
