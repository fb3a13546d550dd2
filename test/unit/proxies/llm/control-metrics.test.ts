/**
 * Issue 36: the LLM proxy's control port answers GET /metrics (DESIGN §17):
 * its requests by fault and its active faults, behind the control token.
 */
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
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

const ask = () =>
  new OpenAI({ apiKey: 'k', baseURL: `${proxy.url}/v1`, maxRetries: 0 }).chat.completions.create({
    model: 'gpt-test',
    messages: [{ role: 'user', content: 'hi' }],
  });

describe('GET /metrics on the LLM proxy control port', () => {
  it('counts passed and injected requests by fault and shows the active fault; 401 without the token', async () => {
    upstream = await startStandIn();
    proxy = await startLlmProxy({ listen: 0, upstream: upstream.url });
    control = await startLlmControl({ proxy, listen: 0, token: 'tok' });
    const auth = { authorization: 'Bearer tok' };
    await ask();
    const created = await fetch(`${control.server!.url}/v1/faults`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ id: 'f1', type: 'llm_failure', params: { error_type: 'rate_limit' }, lease_ms: 60_000 }),
    });
    expect(created.status).toBe(201);
    await expect(ask()).rejects.toBeInstanceOf(OpenAI.RateLimitError);

    expect((await fetch(`${control.server!.url}/metrics`)).status).toBe(401);
    const r = await fetch(`${control.server!.url}/metrics`, { headers: auth });
    expect(r.status).toBe(200);
    const text = await r.text();
    expect(text).toContain('arena_proxy_requests_total{proxy="llm",fault="none"} 1');
    expect(text).toContain('arena_proxy_requests_total{proxy="llm",fault="rate_limit"} 1');
    expect(text).toContain('arena_faults_active{type="llm_failure",target="llm"} 1');
    // the tokens the passed answer's usage reported (the refused call had none), by model
    expect(text).toContain('arena_llm_tokens_total{direction="input",model="gpt-test"} 5');
    expect(text).toContain('arena_llm_tokens_total{direction="output",model="gpt-test"} 3');
    // a second scrape adds nothing that did not happen
    const again = await (await fetch(`${control.server!.url}/metrics`, { headers: auth })).text();
    expect(again).toContain('arena_proxy_requests_total{proxy="llm",fault="rate_limit"} 1');
    expect(again).toContain('arena_llm_tokens_total{direction="input",model="gpt-test"} 5');
  });
});
