/**
 * Issue 36: GET /metrics on `arena serve` in the Prometheus text format, with
 * the names and labels of DESIGN §17, behind the API key (X-API-Key or Bearer).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { call, serveRootForTest } from '../hardening/served-root.js';
import { createFakeTarget } from '../../../helpers/fake-target.js';
import { createCallLedger } from '../../../../src/protocol/calls.js';

const KEY = 'metrics-test-key';
const bearer = { Authorization: `Bearer ${KEY}` };

describe('GET /metrics on arena serve', () => {
  it('counts an injected fault by type, target and outcome, readable with a bearer key', async () => {
    const { url } = await serveRootForTest({}, { apiKey: KEY });
    const agents = await call(url, 'GET', '/api/v1/agents', undefined, bearer);
    expect(agents.status, agents.text).toBe(200);
    const id: string = (agents.json.agents ?? agents.json)[0].id;
    const kill = await call(url, 'POST', `/api/v1/arena/agent/${id}/kill`, undefined, bearer);
    expect(kill.status, kill.text).toBe(200);
    // a resume of a running agent runs and cannot be applied (an unknown agent is a 400, not counted)
    const refused = await call(url, 'POST', '/api/v1/arena/agent/agent-3/resume', undefined, bearer);
    expect(refused.status, refused.text).toBe(422);

    const r = await call(url, 'GET', '/metrics', undefined, bearer);
    expect(r.status, r.text).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(r.text).toContain(`arena_faults_injected_total{type="kill_agent",target="${id}",outcome="applied"} 1`);
    expect(r.text).toContain('arena_faults_injected_total{type="resume_agent",target="agent-3",outcome="refused"} 1');
    expect(r.text).toMatch(/# TYPE arena_fault_recovery_seconds histogram/);
    for (const name of [
      'arena_faults_active gauge',
      'arena_score gauge',
      'arena_workload_requests_total counter',
      'arena_runs_total counter',
      'arena_proxy_requests_total counter',
      'arena_llm_tokens_total counter',
    ])
      expect(r.text).toContain(`# TYPE ${name}`);
  });

  it("observes the killed agent's recovery in the histogram, buckets from 50 ms to 60 s", async () => {
    const { url } = await serveRootForTest();
    const agents = await call(url, 'GET', '/api/v1/agents');
    const id: string = agents.json.agents[0].id;
    expect((await call(url, 'POST', `/api/v1/arena/agent/${id}/kill`)).status).toBe(200);
    // the embedded supervisor restarts it; the deadline is a safety net for a loaded machine
    const deadline = Date.now() + 60_000;
    let text = '';
    while (Date.now() < deadline) {
      text = (await call(url, 'GET', '/metrics')).text;
      if (text.includes('arena_fault_recovery_seconds_count{type="kill_agent"} 1')) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(text).toContain('arena_fault_recovery_seconds_count{type="kill_agent"} 1');
    expect(text).toContain('arena_fault_recovery_seconds_bucket{le="0.05",type="kill_agent"}');
    expect(text).toContain('arena_fault_recovery_seconds_bucket{le="60",type="kill_agent"} 1');
  }, 90_000);

  it('counts a scenario run served over HTTP by its verdict', async () => {
    const { url } = await serveRootForTest();
    const text = readFileSync('test/fixtures/scenarios/quick-pass.yaml', 'utf8');
    const run = await call(url, 'POST', '/arena/scenario/run', text, { 'Content-Type': 'application/yaml' });
    expect(run.status, run.text).toBe(200);
    const metrics = (await call(url, 'GET', '/metrics')).text;
    expect(metrics).toContain(`arena_runs_total{kind="scenario",verdict="${run.json.status}"} 1`);
  }, 60_000);

  it('counts a survival run served over HTTP when it ends, by its verdict', async () => {
    const { url } = await serveRootForTest();
    const started = await call(url, 'POST', '/arena/survival', { duration: '300ms', interval: '100ms', seed: 3 });
    expect(started.status, started.text).toBe(202);
    // the deadline is a safety net for a loaded machine; the run lasts well under a second
    const deadline = Date.now() + 60_000;
    let text = '';
    while (Date.now() < deadline) {
      text = (await call(url, 'GET', '/metrics')).text;
      if (text.includes('arena_runs_total{kind="survival"')) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const report = await call(url, 'GET', '/arena/survival/report');
    expect(report.status, report.text).toBe(200);
    expect(text).toContain(`arena_runs_total{kind="survival",verdict="${report.json.status}"} 1`);
  }, 90_000);

  it('counts the LLM tokens of the served LLM endpoint by direction and model', async () => {
    // a target without a call ledger: the embedded one's agents spend tokens of their own in the background
    const { url } = await serveRootForTest({ targetFactory: () => createFakeTarget() });
    const r = await call(url, 'POST', '/api/v1/llm/chat', { messages: [{ role: 'user', content: 'hello there' }] });
    expect(r.status, r.text).toBe(200);
    const text = (await call(url, 'GET', '/metrics')).text;
    const model: string = r.json.model;
    expect(text).toContain(`arena_llm_tokens_total{direction="input",model="${model}"} ${r.json.usage.prompt_tokens}`);
    expect(text).toContain(
      `arena_llm_tokens_total{direction="output",model="${model}"} ${r.json.usage.completion_tokens}`,
    );
  });

  it("counts the tokens the target's LLM proxies recorded (Target.calls), by model, each call once", async () => {
    const ledger = createCallLedger();
    const call0 = { kind: 'llm' as const, started_ms: 1, ended_ms: 2, ok: true, faulted: false };
    ledger.record({ ...call0, model: 'gpt-a', tokens: { input: 10, output: 4 } });
    ledger.record({ ...call0, kind: 'tool', tool: 'search' }); // a tool call spends no tokens
    const { url } = await serveRootForTest({ targetFactory: () => ({ ...createFakeTarget(), calls: ledger }) });
    let text = (await call(url, 'GET', '/metrics')).text;
    expect(text).toContain('arena_llm_tokens_total{direction="input",model="gpt-a"} 10');
    expect(text).toContain('arena_llm_tokens_total{direction="output",model="gpt-a"} 4');
    // recorded after the first scrape: added once, the earlier calls not again
    ledger.record({ ...call0, model: 'gpt-a', tokens: { input: 1, output: 1 } });
    ledger.record({ ...call0, tokens: { input: 2, output: 0 } });
    await call(url, 'GET', '/metrics');
    text = (await call(url, 'GET', '/metrics')).text;
    expect(text).toContain('arena_llm_tokens_total{direction="input",model="gpt-a"} 11');
    expect(text).toContain('arena_llm_tokens_total{direction="input",model="unknown"} 2');
  });

  it('is a 401 without a key or with a wrong one; X-API-Key works as well as Bearer', async () => {
    const { url } = await serveRootForTest({}, { apiKey: KEY });
    expect((await call(url, 'GET', '/metrics')).status).toBe(401);
    expect((await call(url, 'GET', '/metrics', undefined, { Authorization: 'Bearer wrong' })).status).toBe(401);
    expect((await call(url, 'GET', '/metrics', undefined, { Authorization: `Basic ${KEY}` })).status).toBe(401);
    expect((await call(url, 'GET', '/metrics', undefined, { 'X-API-Key': KEY })).status).toBe(200);
  });

  it('keeps one registry per server: two servers do not share counts', async () => {
    const a = await serveRootForTest();
    const b = await serveRootForTest();
    const agents = await call(a.url, 'GET', '/api/v1/agents');
    const id: string = (agents.json.agents ?? agents.json)[0].id;
    expect((await call(a.url, 'POST', `/api/v1/arena/agent/${id}/kill`)).status).toBe(200);
    expect((await call(a.url, 'GET', '/metrics')).text).toContain('outcome="applied"} 1');
    expect((await call(b.url, 'GET', '/metrics')).text).not.toContain('arena_faults_injected_total{');
  });
});
