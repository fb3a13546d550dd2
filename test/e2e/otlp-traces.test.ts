/**
 * `--otlp`: a real run exports its spans over OTLP/HTTP to a receiver in this
 * process. Both encodings are decoded, the default http/protobuf with the
 * official opentelemetry-proto definitions (test/helpers/otlp-receiver.ts),
 * and the run → fault span tree and its chaos.* attributes checked in each.
 * `arena proxy llm --otlp`: the official openai client's call, with its own
 * traceparent, is a span in the client's trace, an injected 429 included.
 */
import { execa, type ResultPromise } from 'execa';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { arena, ARENA_BIN, REPO_ROOT } from '../helpers/cli.js';
import { startStandIn, type StandIn } from '../helpers/llm-upstream.js';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../helpers/otlp-receiver.js';
import { startServe, type ServeProcess } from './serve-helpers.js';

let receiver: OtlpReceiver | undefined;
let serve: ServeProcess | undefined;
let proxy: ResultPromise | undefined;
let upstream: StandIn | undefined;
afterEach(async () => {
  await serve?.stop();
  serve = undefined;
  if (proxy && proxy.exitCode === null) {
    proxy.kill('SIGKILL');
    await proxy.catch(() => undefined);
  }
  proxy = undefined;
  await upstream?.close();
  upstream = undefined;
  await receiver?.close();
  receiver = undefined;
});

/** the run span, its fault spans beneath it and their chaos.* attributes, as quick-pass.yaml makes them */
function checkRunTree(spans: ReceivedSpan[], encoding: ReceivedSpan['encoding']): void {
  expect(spans.length).toBeGreaterThan(0);
  expect(spans.every((s) => s.encoding === encoding)).toBe(true);
  const run = spans.find((s) => s.name === 'chaos scenario');
  expect(run, JSON.stringify(spans.map((s) => s.name))).toBeDefined();
  expect(run!.parentSpanId).toBe('');
  expect(run!.resource['service.name']).toBe('chaos-ci');
  expect(run!.attributes).toMatchObject({
    'chaos.run.kind': 'scenario',
    'chaos.run.name': 'quick-pass',
    'chaos.run.seed': 7,
    'chaos.run.status': 'passed',
    'chaos.run.score': expect.any(Number),
  });
  const runId = run!.attributes['chaos.run.id'];

  const faults = spans.filter((s) => s.name.startsWith('chaos.fault '));
  expect(faults.map((s) => s.attributes['chaos.fault.type']).sort()).toEqual(['kill_leader', 'slow_agent']);
  for (const f of faults) {
    expect(f.traceId).toBe(run!.traceId);
    expect(f.parentSpanId).toBe(run!.spanId);
    expect(f.attributes).toMatchObject({
      'chaos.run.id': runId,
      'chaos.fault.outcome': 'applied',
      'chaos.fault.success': true,
      'chaos.fault.target': expect.any(String),
      'chaos.fault.id': expect.any(String),
    });
    expect(f.startMs).toBeGreaterThanOrEqual(run!.startMs);
    expect(f.endMs).toBeLessThanOrEqual(run!.endMs);
  }
  // the kill is disruptive: its span lasts until the target recovered, and says how long that took
  const kill = faults.find((f) => f.attributes['chaos.fault.type'] === 'kill_leader')!;
  expect(kill.attributes['chaos.fault.target']).toMatch(/^agent-/);
  expect(kill.attributes['chaos.recovered']).toBe(true);
  const recoveryMs = kill.attributes['chaos.recovery_ms'] as number;
  expect(recoveryMs).toBeGreaterThanOrEqual(0);
  expect(kill.events).toEqual([
    { name: 'chaos.recovery', attributes: { 'chaos.recovered': true, 'chaos.recovery_ms': recoveryMs } },
  ]);
  expect(run!.events.map((e) => e.name)).toContain('chaos.phase');
}

describe('arena scenario run --otlp', () => {
  const encodings = [
    { protocol: 'http/protobuf (the default)', env: {}, contentType: 'application/x-protobuf', encoding: 'protobuf' },
    {
      protocol: 'http/json',
      env: { OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' },
      contentType: 'application/json',
      encoding: 'json',
    },
  ] as const;
  for (const { protocol, env, contentType, encoding } of encodings)
    it(`${protocol}: a span per run and a child span per fault, with the recovery as a span event`, async () => {
      receiver = await startOtlpReceiver();
      const r = await arena(['scenario', 'run', 'test/fixtures/scenarios/quick-pass.yaml', '--otlp', receiver.url], {
        env: { ...env, OTEL_SERVICE_NAME: 'chaos-ci' },
      });
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/span\(s\) exported to http:\/\/127\.0\.0\.1:\d+\/v1\/traces/);
      expect(receiver.requests.every((q) => q.path === '/v1/traces')).toBe(true);
      expect(receiver.requests.map((q) => q.contentType)).toContain(contentType);
      checkRunTree(receiver.spans(), encoding);
    }, 60_000);

  it('a refused fault is an error span saying why', async () => {
    receiver = await startOtlpReceiver();
    const r = await arena(['scenario', 'run', 'test/fixtures/scenarios/refused-resume.yaml', '--otlp', receiver.url], {
      env: { OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' },
    });
    expect(r.stderr).toContain('exported to');
    const refused = receiver.spans().filter((s) => s.attributes['chaos.fault.outcome'] === 'refused');
    expect(refused.length, r.stderr).toBeGreaterThan(0);
    expect(refused[0]!.status.code).toBe(2); // STATUS_CODE_ERROR
    expect(refused[0]!.attributes['chaos.fault.success']).toBe(false);
    expect(refused[0]!.attributes['chaos.fault.error']).toContain('not paused');
    expect(receiver.spans().find((s) => s.name === 'chaos scenario')!.attributes['chaos.run.status']).toBe(
      'inconclusive',
    );
  }, 60_000);

  it('OTEL_EXPORTER_OTLP_ENDPOINT alone turns tracing on; the default protocol is http/protobuf with the headers given', async () => {
    receiver = await startOtlpReceiver();
    const r = await arena(['scenario', 'run', 'test/fixtures/scenarios/quick-pass.yaml'], {
      env: {
        OTEL_EXPORTER_OTLP_ENDPOINT: `${receiver.url}/`,
        OTEL_EXPORTER_OTLP_HEADERS: 'authorization=Bearer%20s3cret',
      },
    });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(receiver.requests.length).toBeGreaterThan(0);
    const [first] = receiver.requests;
    expect(first!.path).toBe('/v1/traces');
    expect(first!.contentType).toBe('application/x-protobuf');
    expect(first!.headers.authorization).toBe('Bearer s3cret');
    const spans = receiver.spans();
    expect(spans.every((sp) => sp.encoding === 'protobuf')).toBe(true);
    expect(spans.map((sp) => sp.name)).toEqual(expect.arrayContaining(['chaos scenario', 'chaos.fault kill_leader']));
    expect(spans.find((sp) => sp.name === 'chaos scenario')!.attributes['chaos.run.name']).toBe('quick-pass');
  }, 60_000);

  it('a collector that is not there costs the run nothing but a warning', async () => {
    receiver = await startOtlpReceiver();
    const closed = receiver.url;
    await receiver.close();
    receiver = undefined;
    const r = await arena(['scenario', 'run', 'test/fixtures/scenarios/quick-pass.yaml', '--otlp', closed]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/traces: [1-9]\d* span\(s\) not exported to http:\/\/127\.0\.0\.1:\d+\/v1\/traces/);
  }, 60_000);

  it('a bad --otlp or OTEL_* value is a usage error naming it, before anything runs', async () => {
    const bad = await arena(['scenario', 'run', 'test/fixtures/scenarios/quick-pass.yaml', '--otlp', 'grpc://x:4317']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('--otlp: grpc://x:4317 must be an http:// or https:// URL');
    expect(bad.stdout).not.toContain('quick-pass');
    const proto = await arena(['scenario', 'run', 'test/fixtures/scenarios/quick-pass.yaml'], {
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:1', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' },
    });
    expect(proto.exitCode).toBe(2);
    expect(proto.stderr).toContain('OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" is not supported');
  }, 60_000);
});

describe('an interrupted run', () => {
  it('SIGINT: the run span ends interrupted and every span still goes out before the exit', async () => {
    receiver = await startOtlpReceiver();
    const child = arena(['scenario', 'run', 'test/fixtures/scenarios/long-faults.yaml', '--otlp', receiver.url], {
      env: { OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' },
    });
    await new Promise<void>((resolve, reject) => {
      let seen = '';
      child.stderr!.on('data', (chunk: Buffer) => {
        seen += chunk.toString();
        if (/action slow-3 slow_agent agent-3 → ok/.test(seen)) resolve();
      });
      child.then(() => reject(new Error(`exited first: ${seen}`)), reject);
    });
    child.kill('SIGINT');
    const r = await child;
    expect(r.exitCode).toBe(130);
    expect(r.stderr).toMatch(/[1-9]\d* span\(s\) exported to/);
    const spans = receiver.spans();
    const run = spans.find((s) => s.name === 'chaos scenario');
    expect(run?.attributes['chaos.run.status']).toBe('interrupted');
    expect(run?.events.map((e) => e.name)).toContain('chaos.fault.reverted');
    expect(
      spans
        .filter((s) => s.parentSpanId === run!.spanId)
        .map((s) => s.attributes['chaos.fault.type'])
        .sort(),
    ).toEqual(['pause_agent', 'slow_agent']);
  }, 60_000);
});

describe('arena serve --otlp', () => {
  it('a scenario run through the API is traced like one on the command line; the spans go out when the server stops', async () => {
    receiver = await startOtlpReceiver();
    serve = await startServe(['--otlp', receiver.url], { OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' });
    const scenario =
      'name: via-api\nconfig: { warmup: 100ms, cooldown: 200ms }\nactions:\n  - label: k\n    action: { type: kill_agent, target_id: agent-2 }\n';
    const res = await fetch(`${serve.url}/arena/scenario/run?seed=5`, {
      method: 'POST',
      headers: { 'content-type': 'application/yaml' },
      body: scenario,
    });
    expect(res.status).toBe(200);
    const stopped = await serve.stop();
    expect(stopped.stderr).toMatch(/[1-9]\d* span\(s\) exported to/);
    const spans = receiver.spans();
    const run = spans.find((s) => s.name === 'chaos scenario');
    expect(run?.attributes).toMatchObject({ 'chaos.run.name': 'via-api', 'chaos.run.seed': 5 });
    const kill = spans.find((s) => s.name === 'chaos.fault kill_agent');
    expect(kill?.parentSpanId).toBe(run!.spanId);
    expect(kill?.attributes).toMatchObject({ 'chaos.fault.target': 'agent-2', 'chaos.fault.outcome': 'applied' });
  }, 60_000);
  it('a fault injected on its own through a fault route gets a span, a child of the traceparent the caller sent', async () => {
    receiver = await startOtlpReceiver();
    serve = await startServe(['--otlp', receiver.url], { OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' });
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const parentId = '00f067aa0ba902b7';
    const pause = await fetch(`${serve.url}/arena/agent/agent-2/pause`, {
      method: 'POST',
      headers: { traceparent: `00-${traceId}-${parentId}-01` },
    });
    expect(pause.status, await pause.text()).toBe(200);
    // refused (a running agent cannot be resumed): a span too, an error saying why
    const refusedRes = await fetch(`${serve.url}/arena/agent/agent-3/resume`, { method: 'POST' });
    expect(refusedRes.status).toBe(422);
    await serve.stop();
    const spans = receiver.spans();
    const applied = spans.find((s) => s.name === 'chaos.fault pause_agent');
    const refused = spans.find((s) => s.name === 'chaos.fault resume_agent');
    expect(applied).toMatchObject({ traceId, parentSpanId: parentId });
    expect(applied!.attributes).toMatchObject({
      'chaos.fault.type': 'pause_agent',
      'chaos.fault.target': 'agent-2',
      'chaos.fault.outcome': 'applied',
      'chaos.fault.source': 'api',
    });
    // no traceparent: a trace of its own
    expect(refused!.traceId).not.toBe(traceId);
    expect(refused!.parentSpanId).toBe('');
    expect(refused!.attributes).toMatchObject({ 'chaos.fault.outcome': 'refused' });
    expect(refused!.status.code).toBe(2);
  }, 60_000);
});

describe('arena proxy llm --otlp', () => {
  it("the official openai client's call is traced inside the client's own trace: the injected 429 and the retry, each a child of its traceparent, propagated upstream", async () => {
    receiver = await startOtlpReceiver();
    upstream = await startStandIn();
    // the default protocol: http/protobuf, decoded with the official definitions
    proxy = execa(
      'node',
      [
        ARENA_BIN,
        'proxy',
        'llm',
        ...['--upstream', upstream.url, '--listen', '0', '--control', '0', '--otlp', receiver.url],
        ...['--fault', 'rate_limit', '--first-n', '1', '--retry-after', '0.1'],
      ],
      {
        cwd: REPO_ROOT,
        reject: false,
        extendEnv: false,
        env: { PATH: process.env.PATH ?? '', NO_COLOR: '1', CI: '1' },
      },
    );
    let out = '';
    proxy.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    const deadline = Date.now() + 30_000; // a safety net for a busy runner
    while (!out.includes('press Ctrl-C')) {
      if (proxy.exitCode !== null || Date.now() > deadline) throw new Error(`proxy did not start: ${out}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    const proxyUrl = /llm proxy on (\S+)/.exec(out)![1]!;

    const traceId = '0af7651916cd43dd8448eb211c80319c';
    const parent = 'b7ad6b7169203331';
    const client = new OpenAI({ apiKey: 'k', baseURL: `${proxyUrl}/v1`, maxRetries: 1 });
    const answer = await client.chat.completions.create(
      { model: 'gpt-traced', messages: [{ role: 'user', content: 'hi' }] },
      { headers: { traceparent: `00-${traceId}-${parent}-01` } },
    );
    expect(answer.choices[0]!.message.content).toBe('Hello from the');
    proxy.kill('SIGINT');
    const stopped = await proxy;
    expect(stopped.exitCode, String(stopped.stderr)).toBe(0);

    const spans = receiver.spans().filter((s) => s.traceId === traceId);
    expect(spans.map((s) => s.encoding)).toEqual(['protobuf', 'protobuf']);
    for (const span of spans) {
      expect(span.parentSpanId).toBe(parent);
      expect(span.kind).toBe(3); // SPAN_KIND_CLIENT
      expect(span.name).toBe('chat gpt-traced');
      expect(span.attributes).toMatchObject({
        'gen_ai.operation.name': 'chat',
        'gen_ai.request.model': 'gpt-traced',
        'gen_ai.provider.name': 'openai',
      });
    }
    const limited = spans.find((s) => s.attributes['http.response.status_code'] === 429)!;
    expect(limited.attributes).toMatchObject({ 'chaos.fault.type': 'rate_limit', 'error.type': '429' });
    expect(limited.status).toMatchObject({ code: 2, message: 'injected rate_limit' });
    expect(limited.events.map((e) => e.name)).toEqual(['chaos.fault']);
    const retried = spans.find((s) => s.attributes['http.response.status_code'] === 200)!;
    expect(retried.attributes).toMatchObject({ 'gen_ai.usage.input_tokens': 5, 'gen_ai.usage.output_tokens': 3 });
    // only the retry reached the upstream, with the proxy's span as its parent
    expect(upstream.requests).toHaveLength(1);
    const raw = upstream.requests[0]!.rawHeaders;
    const sent = raw[raw.findIndex((h, i) => i % 2 === 0 && h.toLowerCase() === 'traceparent') + 1];
    expect(sent).toBe(`00-${traceId}-${retried.spanId}-01`);
  }, 60_000);
});
