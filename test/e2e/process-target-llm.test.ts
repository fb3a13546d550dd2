/**
 * llm_failure through the LLM fault proxy a process target starts from its
 * `llm:` block: the agents' LLM calls get the provider's real error on the
 * wire while the fault lasts, then pass through again.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { Target } from '../../src/arena/providers.js';
import { createProcessTarget } from '../../src/targets/process/index.js';
import { FLEET_DIR, freePorts, processesMatching, tinyFleet, waitFor } from '../helpers/process-fleet.js';

let target: Target | undefined;
let upstream: http.Server | undefined;
let tag = '';

afterEach(async () => {
  await target?.stop();
  target = undefined;
  await new Promise((r) => (upstream ? upstream.close(r) : r(undefined)));
  upstream = undefined;
  expect(processesMatching(tag)).toEqual([]);
});

/** a stand-in OpenAI API: every chat completion succeeds unless `upstreamDown`; records who called */
let upstreamDown = false;
const callers: string[] = [];
async function fakeOpenAI(): Promise<string> {
  upstreamDown = false;
  callers.length = 0;
  upstream = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      callers.push(String(req.headers['x-arena-client'] ?? ''));
      if (upstreamDown) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: 'down', type: 'server_error', param: null, code: null } }));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id: 'c1',
          object: 'chat.completion',
          choices: [{ index: 0, message: { role: 'assistant', content: 'hi' }, finish_reason: 'stop' }],
        }),
      );
    });
  });
  await new Promise<void>((r) => upstream!.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
}

function chat(port: number): Promise<{ status: number; retryAfter?: string; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/v1/chat/completions',
        headers: { 'content-type': 'application/json' },
        agent: false,
      },
      (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () =>
          resolve({
            status: res.statusCode!,
            body,
            ...(res.headers['retry-after'] ? { retryAfter: String(res.headers['retry-after']) } : {}),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify({ model: 'gpt-test', messages: [{ role: 'user', content: 'ping' }] }));
  });
}

describe('process target: llm_failure through the LLM proxy', { timeout: 45_000 }, () => {
  it('a shared llm proxy answers with the wire-exact error for the duration, says who shares it, then passes through', async () => {
    tag = `llm${process.pid}`;
    const url = await fakeOpenAI();
    const [listen] = await freePorts(1);
    const fleet = await tinyFleet({
      tag,
      n: 2,
      edit: (input) => void (input.llm = { listen: listen!, upstream: url, api: 'openai' }),
    });
    target = createProcessTarget(fleet.spec, { baseDir: FLEET_DIR });
    await target.start();
    expect(target.unsupportedFaults().llm_failure).toBeUndefined();
    expect((await chat(listen!)).status).toBe(200);

    const report = await target.runtime.injectLlmFailure(fleet.ids[0]!, 'rate_limit', { durationMs: 800 });
    expect(report).toMatchObject({ error_type: 'rate_limit', shared_with: [fleet.ids[1]] });
    const failed = await chat(listen!);
    expect(failed.status).toBe(429);
    expect(failed.retryAfter).toBeDefined();
    expect(JSON.parse(failed.body)).toMatchObject({ error: { code: 'rate_limit_exceeded' } });
    expect((await target.observer.health({ kind: 'agent', id: fleet.ids[0]!, aspect: 'llm' })).healthy).toBe(false);

    await waitFor(
      async () => (await target!.observer.health({ kind: 'agent', id: fleet.ids[0]!, aspect: 'llm' })).healthy,
      5000,
      'llm healthy again',
    );
    expect((await chat(listen!)).status).toBe(200);
    expect(await target.runtime.activeFaults()).toEqual([]);
  });

  it('after the fault ends, recovery waits for a probe call through the proxy to succeed (the upstream must answer)', async () => {
    tag = `llmp${process.pid}`;
    const url = await fakeOpenAI();
    const [listen] = await freePorts(1);
    const fleet = await tinyFleet({
      tag,
      n: 1,
      edit: (input) => void (input.agents[0]!.llm = { listen: listen!, upstream: url, api: 'openai' }),
    });
    target = createProcessTarget(fleet.spec, { baseDir: FLEET_DIR, env: {} });
    await target.start();
    const llmHealth = () => target!.observer.health({ kind: 'agent', id: fleet.ids[0]!, aspect: 'llm' });
    expect((await llmHealth()).healthy).toBe(true);
    expect(callers).toEqual(['arena-probe']);

    await target.runtime.injectLlmFailure(fleet.ids[0]!, 'rate_limit', { durationMs: 300 });
    upstreamDown = true;
    // while the fault lasts its answer is known: no probe call is spent on it
    expect((await llmHealth()).problems).toEqual([`${fleet.ids[0]}: llm_failure is active`]);
    expect(callers).toHaveLength(1);
    await waitFor(async () => (await target!.runtime.activeFaults()).length === 0, 5000, 'the fault to end');
    // the fault is over but the API is not answering: not recovered, and the probe says why
    const down = await llmHealth();
    expect(down.healthy).toBe(false);
    expect(down.problems.join('\n')).toMatch(
      /LLM probe POST http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions answered 500/,
    );
    upstreamDown = false;
    await waitFor(async () => (await llmHealth()).healthy, 5000, 'llm healthy once the upstream answers');
    expect(new Set(callers)).toEqual(new Set(['arena-probe']));
  });
});
