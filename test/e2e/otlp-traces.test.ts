/**
 * `--otlp`: a real run exports its spans over OTLP/HTTP to a receiver in this
 * process. The http/json export (OTLP's JSON encoding) is decoded and its
 * run → fault span tree and chaos.* attributes checked; the default
 * http/protobuf export is checked to arrive as protobuf with the same spans.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { arena } from '../helpers/cli.js';
import { startOtlpReceiver, type OtlpReceiver } from '../helpers/otlp-receiver.js';
import { startServe, type ServeProcess } from './serve-helpers.js';

let receiver: OtlpReceiver | undefined;
let serve: ServeProcess | undefined;
afterEach(async () => {
  await serve?.stop();
  serve = undefined;
  await receiver?.close();
  receiver = undefined;
});

describe('arena scenario run --otlp', () => {
  it('exports a span per run and a child span per fault, with the recovery as a span event', async () => {
    receiver = await startOtlpReceiver();
    const r = await arena(['scenario', 'run', 'test/fixtures/scenarios/quick-pass.yaml', '--otlp', receiver.url], {
      env: { OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_SERVICE_NAME: 'chaos-ci' },
    });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/span\(s\) exported to http:\/\/127\.0\.0\.1:\d+\/v1\/traces/);
    expect(receiver.requests.every((q) => q.path === '/v1/traces')).toBe(true);

    const spans = receiver.spans();
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
    // protobuf carries strings as raw UTF-8: the span and attribute names are in the bytes
    const bytes = Buffer.concat(receiver.requests.map((q) => q.body)).toString('latin1');
    for (const text of ['chaos scenario', 'chaos.fault kill_leader', 'chaos.recovery_ms', 'quick-pass'])
      expect(bytes).toContain(text);
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
