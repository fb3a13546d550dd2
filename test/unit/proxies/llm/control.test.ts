/**
 * The control port over real HTTP: the Arena Target Protocol's fault routes
 * and `GET /v1/stats`, with leases, idempotent ids and 400/422 answers that
 * name what is wrong and change nothing.
 */
import { LLM_ERROR_TYPES, LLM_FAULT_PARAM_NAMES } from '../../../../src/protocol/llm-faults.js';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../src/shared/clock.js';
import { startLlmControl, startLlmProxy, type LlmControl, type LlmProxy } from '../../../../src/proxies/llm/index.js';
import { startStandIn, type StandIn } from '../../../helpers/llm-upstream.js';

let upstream: StandIn;
let proxy: LlmProxy;
let control: LlmControl;
afterEach(async () => {
  await control?.close();
  await proxy?.close();
  await upstream?.close();
});

async function setup() {
  upstream = await startStandIn();
  proxy = await startLlmProxy({ listen: 0, upstream: upstream.url });
  control = await startLlmControl({ proxy, listen: 0 });
}

const post = (path: string, body: unknown) =>
  fetch(`${control.server!.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
const ask = () =>
  new OpenAI({ apiKey: 'k', baseURL: `${proxy.url}/v1`, maxRetries: 0 }).chat.completions.create({
    model: 'gpt-test',
    messages: [{ role: 'user', content: 'hi' }],
  });

describe('LLM proxy control port', () => {
  it('POST /v1/faults applies, GET lists, GET /v1/stats counts, DELETE reverts', async () => {
    await setup();
    const created = await post('/v1/faults', {
      id: 'f1',
      type: 'llm_failure',
      params: { error_type: 'server_error' },
      lease_ms: 60_000,
    });
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({
      id: 'f1',
      report: { error_type: 'server_error', api: 'auto', acts_on: 'every client of this proxy' },
    });
    const again = await post('/v1/faults', {
      id: 'f1',
      type: 'llm_failure',
      params: { error_type: 'server_error' },
      lease_ms: 60_000,
    });
    expect(again.status).toBe(200);
    expect(proxy.stats().faults).toHaveLength(1);

    await expect(ask()).rejects.toBeInstanceOf(OpenAI.InternalServerError);
    const listed = (await (await fetch(`${control.server!.url}/v1/faults`)).json()) as {
      faults: Array<{ id: string; type: string }>;
    };
    expect(listed.faults.map((f) => [f.id, f.type])).toEqual([['f1', 'llm_failure']]);
    const stats = (await (await fetch(`${control.server!.url}/v1/stats`)).json()) as Record<string, unknown>;
    expect(stats).toMatchObject({
      requests: 1,
      errors_injected: { server_error: 1 },
      faults: [{ id: 'f1', fired: 1 }],
    });

    const deleted = await fetch(`${control.server!.url}/v1/faults/f1`, { method: 'DELETE' });
    expect(await deleted.json()).toEqual({ id: 'f1', reverted: true });
    expect((await ask()).choices[0]!.message.content).toBe('Hello from the');
  });

  it('a fault whose lease is not renewed ends by itself; a renewed one holds', async () => {
    // the lease runs on an injected clock, so a slow machine cannot end it before the first call
    const clock = new ManualClock();
    upstream = await startStandIn();
    proxy = await startLlmProxy({ listen: 0, upstream: upstream.url, clock });
    control = await startLlmControl({ proxy, listen: 0, clock });
    await post('/v1/faults', { id: 'short', type: 'llm_failure', params: { error_type: 'overloaded' }, lease_ms: 100 });
    await clock.advance(90);
    expect(await (await post('/v1/leases', { ids: ['short'], lease_ms: 100 })).json()).toEqual({ renewed: ['short'] });
    await clock.advance(90);
    await expect(ask()).rejects.toMatchObject({ status: 503 });
    await clock.advance(20);
    expect((await ask()).model).toBe('gpt-test');
    expect(proxy.stats().faults).toEqual([]);
  });

  it('an unknown error_type is a 400 listing the valid ones, and nothing is applied', async () => {
    await setup();
    const res = await post('/v1/faults', { id: 'bad', type: 'llm_failure', params: { error_type: 'meltdown' } });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      code: 'bad_request',
      error: `params.error_type: unknown error type "meltdown" (valid: ${LLM_ERROR_TYPES.join(', ')})`,
    });
    expect(proxy.stats().faults).toEqual([]);
  });

  it.each([
    [{ first_n: 0 }, 'params.first_n: expected a whole number from 1 to 1000000'],
    [{ probability: 1.5 }, 'params.probability: expected a number from 0 to 1'],
    [{ match: { host: 'x' } }, 'params.match.host: unknown field (expected path, model)'],
    [{ retry_after_s: -1 }, 'params.retry_after_s: expected seconds from 0 to 3600'],
    [
      { error_type: 'timeout', retry_after_s: 1 },
      'params.retry_after_s: timeout sends no status, so it has no retry-after (only rate_limit, overloaded, server_error do)',
    ],
    [{ after_events: 2 }, 'params.after_events: only stream_error and stream_stall take it, not rate_limit'],
    [{ error_type: 'truncate', keep: 2 }, 'params.keep: expected a fraction from 0 to 1'],
    [{ error_type: 'empty', keep: 0.5 }, 'params.keep: only truncate takes it, not empty'],
    [
      { error_type: 'model_swap' },
      'params.to_model: model_swap needs to_model, the model the request goes upstream for',
    ],
    [
      { error_type: 'rate_limit_storm' },
      'params.requests_per_min: rate_limit_storm needs requests_per_min, tokens_per_min or both',
    ],
    [
      { error_type: 'slow_stream', chunk_delay_ms: -1 },
      'params.chunk_delay_ms: expected a whole number from 0 to 600000',
    ],
    [{ delay: 5 }, `params.delay: unknown parameter (expected one of ${LLM_FAULT_PARAM_NAMES.join(', ')})`],
  ])('params %j is a 400: %s', async (params, message) => {
    await setup();
    const res = await post('/v1/faults', { id: 'bad', type: 'llm_failure', params });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toBe(message);
    expect(proxy.stats().faults).toEqual([]);
  });

  it('another fault type is a 422 unsupported; broken JSON a 400', async () => {
    await setup();
    const wrong = await post('/v1/faults', { id: 'k', type: 'kill_agent', target_id: 'a' });
    expect(wrong.status).toBe(422);
    expect(await wrong.json()).toEqual({
      code: 'unsupported',
      error: 'type: the LLM proxy applies only llm_failure, not kill_agent',
    });
    const broken = await post('/v1/faults', '{"id":');
    expect(broken.status).toBe(400);
  });

  it('POST /v1/reset reverts every fault; closing the control reverts what is left', async () => {
    await setup();
    await post('/v1/faults', { id: 'r1', type: 'llm_failure', params: {} });
    await post('/v1/faults', { id: 'r2', type: 'llm_failure', params: { error_type: 'overloaded' } });
    expect(await (await post('/v1/reset', {})).json()).toEqual({ reverted: 2 });
    expect(proxy.stats().faults).toEqual([]);
    await post('/v1/faults', { id: 'r3', type: 'llm_failure', params: {} });
    await control.close();
    expect(proxy.stats().faults).toEqual([]);
  });
});
