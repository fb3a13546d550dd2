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
          model: 'gpt-test',
          choices: [{ index: 0, message: { role: 'assistant', content: 'hi' }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 7, completion_tokens: 2, total_tokens: 9 },
        }),
      );
    });
  });
  await new Promise<void>((r) => upstream!.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
}

function chat(
  port: number,
  extraHeaders: Record<string, string> = {},
): Promise<{ status: number; retryAfter?: string; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/v1/chat/completions',
        headers: { 'content-type': 'application/json', ...extraHeaders },
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

    const report = await target.runtime.injectLLMFailure(fleet.ids[0]!, 'rate_limit', { durationMs: 800 });
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

    await target.runtime.injectLLMFailure(fleet.ids[0]!, 'rate_limit', { durationMs: 300 });
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

  it('the probe asks what the agents asked (their last path and model), or what llm.probe fixes', async () => {
    tag = `llmr${process.pid}`;
    // an upstream that serves only the Responses API, and only one model
    const seen: { path?: string; model?: unknown; client?: unknown }[] = [];
    upstream = http.createServer((req, res) => {
      let text = '';
      req.on('data', (c) => (text += c));
      req.on('end', () => {
        const body = JSON.parse(text || '{}') as Record<string, unknown>;
        seen.push({ path: req.url, model: body.model, client: req.headers['x-arena-client'] });
        const isServed = req.url === '/v1/responses' && body.model === 'gpt-allowed';
        res.writeHead(isServed ? 200 : 404, { 'content-type': 'application/json' });
        res.end(JSON.stringify(isServed ? { id: 'r1', object: 'response' } : { error: { message: 'no' } }));
      });
    });
    await new Promise<void>((r) => upstream!.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    const [own, fixed] = await freePorts(2);
    const fleet = await tinyFleet({
      tag,
      n: 2,
      edit: (input) => {
        input.agents[0]!.llm = { listen: own!, upstream: url, api: 'openai' };
        input.agents[1]!.llm = {
          listen: fixed!,
          upstream: url,
          api: 'openai',
          probe: { path: '/v1/responses', model: 'gpt-allowed' },
        };
      },
    });
    target = createProcessTarget(fleet.spec, { baseDir: FLEET_DIR, env: {} });
    await target.start();
    const llmHealth = (i: number) => target!.observer.health({ kind: 'agent', id: fleet.ids[i]!, aspect: 'llm' });
    // no traffic yet: the default chat completion is all the probe can try, and this upstream refuses it
    expect((await llmHealth(0)).problems.join('\n')).toMatch(/\/v1\/chat\/completions answered 404/);
    // the target file fixed the probe: it passes without any traffic
    expect((await llmHealth(1)).healthy).toBe(true);

    // the agent's own call, its model after a long input (SDKs put it anywhere in the body)
    const agentCall = await new Promise<number>((resolve, reject) => {
      const req = http.request(
        { host: '127.0.0.1', port: own, method: 'POST', path: '/v1/responses', agent: false },
        (res) => {
          res.resume();
          resolve(res.statusCode!);
        },
      );
      req.on('error', reject);
      req.end(JSON.stringify({ input: [{ role: 'user', content: 'x'.repeat(100_000) }], model: 'gpt-allowed' }));
    });
    expect(agentCall).toBe(200);
    await waitFor(async () => (await llmHealth(0)).healthy, 5000, 'the probe to ask what the agent asked');
    const probes = seen.filter((s) => s.client === 'arena-probe' && s.path === '/v1/responses');
    expect(probes.length).toBeGreaterThanOrEqual(2);
    expect(probes.every((s) => s.model === 'gpt-allowed')).toBe(true);
  });

  it('the LLM aspect is timed on its own: a pause of the same agent does not hold up its recovery', async () => {
    tag = `llmi${process.pid}`;
    const url = await fakeOpenAI();
    const [listen] = await freePorts(1);
    const fleet = await tinyFleet({
      tag,
      n: 1,
      edit: (input) => void (input.agents[0]!.llm = { listen: listen!, upstream: url, api: 'openai' }),
    });
    target = createProcessTarget(fleet.spec, { baseDir: FLEET_DIR, env: {} });
    await target.start();
    const id = fleet.ids[0]!;
    await target.runtime.injectLLMFailure(id, 'server_error', { durationMs: 200 });
    await target.runtime.pauseAgent(id);
    await waitFor(async () => (await target!.runtime.activeFaults()).length === 1, 5000, 'the LLM fault to end');
    // the agent is paused, so the whole agent is not healthy; its LLM calls are
    expect((await target.observer.health({ kind: 'agent', id })).healthy).toBe(false);
    await waitFor(
      async () => (await target!.observer.health({ kind: 'agent', id, aspect: 'llm' })).healthy,
      5000,
      'the llm aspect healthy while the agent is paused',
    );
    expect((await target.observer.health({ kind: 'agent', id, aspect: 'process' })).problems).toEqual([
      `${id} is paused`,
    ]);
    await target.runtime.resumeAgent(id);
  });

  it('records every agent call in Target.calls (not the arena probe), and reports and describes its proxies', async () => {
    tag = `llmc${process.pid}`;
    const url = await fakeOpenAI();
    const [listen] = await freePorts(1);
    const fleet = await tinyFleet({
      tag,
      n: 2,
      edit: (input) => void (input.llm = { listen: listen!, upstream: url, api: 'openai' }),
    });
    target = createProcessTarget(fleet.spec, { baseDir: FLEET_DIR, env: {} });
    await target.start();
    expect((await chat(listen!, { 'x-arena-trial': 't1', 'x-arena-client': 'planner' })).status).toBe(200);
    await target.runtime.injectLLMFailure(fleet.ids[0]!, 'server_error', { params: { first_n: 1 } });
    expect((await chat(listen!, { 'x-arena-trial': 't2' })).status).toBe(500);
    // the recovery probe (once the fault is over) goes through the same proxy: its calls are the arena's
    await target.runtime.revertAll();
    await target.observer.health({ kind: 'agent', id: fleet.ids[0]!, aspect: 'llm' });
    const records = await waitFor(
      () => {
        const { records } = target!.calls!.calls();
        return records.length >= 2 ? records : undefined;
      },
      5000,
      'two calls recorded',
    );
    expect(records).toHaveLength(2);
    expect(records[0]).toMatchObject({
      kind: 'llm',
      trial: 't1',
      client: 'planner',
      ok: true,
      faulted: false,
      model: 'gpt-test',
      tokens: { input: 7, output: 2 },
    });
    // a shared proxy belongs to no one agent
    expect(records[0]!.agent).toBeUndefined();
    expect(records[1]).toMatchObject({ trial: 't2', ok: false, faulted: true });

    const [proxy] = target.proxies!();
    expect(proxy).toMatchObject({
      kind: 'llm',
      agents: fleet.ids,
      listen: `http://127.0.0.1:${listen}`,
      upstream: url,
      // the proxy's own totals count every call through it, the probe's too
      stats: { errors_injected: { server_error: 1 }, tokens: { input: 14, output: 4, answers_with_usage: 2 } },
    });
    // the probe did go through the proxy: its stats count it, apart from the agents
    expect((proxy!.stats as { clients: Array<{ client: string }> }).clients.map((c) => c.client)).toContain(
      'arena-probe',
    );
    const described = await target.describe();
    expect(described.strategy.proxies).toEqual([
      { kind: 'llm', agents: fleet.ids, listen: `http://127.0.0.1:${listen}`, upstream: url },
    ]);
  });
});
