/**
 * A run on a `kind: process` target with an `llm:` proxy, through the real CLI: with `--otlp` the
 * LLM proxy the target starts traces each agent call as a child of the agent's own `traceparent`
 * (as the standalone `arena proxy llm --otlp` does), and with `--serve` the run's /metrics counts
 * the tokens that proxy saw and the target's workload. The test plays the agent: it calls the
 * proxy with a traceparent while the run goes on.
 */
import http from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { ARENA_BIN, REPO_ROOT } from '../helpers/cli.js';
import { FLEET_DIR, freePorts, processesMatching } from '../helpers/process-fleet.js';
import { startOtlpReceiver, type OtlpReceiver } from '../helpers/otlp-receiver.js';

const tag = `obs${process.pid}`;
let dir = '';
let upstream: http.Server | undefined;
let receiver: OtlpReceiver | undefined;

afterEach(async () => {
  await new Promise((r) => (upstream ? upstream.close(r) : r(undefined)));
  upstream = undefined;
  await receiver?.close();
  receiver = undefined;
  rmSync(dir, { recursive: true, force: true });
  expect(processesMatching(tag)).toEqual([]);
});

/** a stand-in OpenAI API: every chat completion answers with a usage */
async function fakeOpenAI(): Promise<string> {
  upstream = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id: 'c1',
          object: 'chat.completion',
          model: 'gpt-obs',
          choices: [{ index: 0, message: { role: 'assistant', content: 'hi' }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 7, completion_tokens: 2, total_tokens: 9 },
        }),
      );
    });
  });
  await new Promise<void>((r) => upstream!.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
}

/** one agent call through the proxy; undefined while the proxy is not listening yet */
function chat(port: number, traceparent: string): Promise<number | undefined> {
  return new Promise((resolve) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/v1/chat/completions',
        headers: { 'content-type': 'application/json', traceparent },
        agent: false,
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode));
      },
    );
    req.on('error', () => resolve(undefined));
    req.end(JSON.stringify({ model: 'gpt-obs', messages: [{ role: 'user', content: 'ping' }] }));
  });
}

const hex = (n: number, width: number) => n.toString(16).padStart(width, '0');

describe('a process target with an LLM proxy', { timeout: 90_000 }, () => {
  it('--otlp traces the agent calls inside their own trace; --serve counts their tokens and the workload', async () => {
    dir = mkdtempSync(join(tmpdir(), 'arena-obs-'));
    receiver = await startOtlpReceiver();
    const url = await fakeOpenAI();
    const [front, port, llmPort] = await freePorts(3);
    const target = join(dir, 'target.yaml');
    writeFileSync(
      target,
      `kind: process
name: tiny
start:
  command: ${JSON.stringify(`exec node ${join(FLEET_DIR, 'supervisor.mjs')} ${front} 200 ${tag}-1=${port}`)}
  ready: { http: "http://127.0.0.1:${front}/healthz", timeout: 10s }
  grace: 1s
agents:
  - id: ${tag}-1
    pid: { port: ${port} }
    health: { http: "http://127.0.0.1:${port}/healthz", interval: 50ms, timeout: 300ms }
llm: { listen: ${llmPort}, upstream: "${url}", api: openai }
workload:
  rate: 20/s
  request: { method: POST, url: "http://127.0.0.1:${front}/task", timeout: 1s }
`,
    );
    const scenario = join(dir, 'scenario.yaml');
    // long enough for the test to call through the proxy while it runs
    writeFileSync(
      scenario,
      `name: traced\nconfig: { warmup: 6s, cooldown: 500ms, timeout: 60s }\nactions:\n  - action: { type: pause_agent, target_id: ${tag}-1, metadata: { duration: 200ms } }\n`,
    );
    const proc = execa(
      'node',
      [ARENA_BIN, 'scenario', 'run', scenario, '--target', target, '--otlp', receiver.url, '--serve', '0', '--json'],
      {
        reject: false,
        cwd: REPO_ROOT,
        extendEnv: false,
        env: { PATH: process.env.PATH ?? '', NO_COLOR: '1', CI: '1', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' },
        timeout: 80_000,
      },
    );
    let err = '';
    const feed = await new Promise<string>((resolve, reject) => {
      proc.stderr!.on('data', (c: Buffer) => {
        err += c.toString();
        const m = /serving run events on (http:\/\/\S+)\/arena\/stream/.exec(err);
        if (m) resolve(m[1]!);
      });
      void proc.then(() => reject(new Error(`no URL printed: ${err}`)));
    });

    const traceId = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';
    const parents: string[] = [];
    // the agent's calls, each its own span in the agent's trace; the deadline is a safety net
    const deadline = Date.now() + 30_000;
    let answered = 0;
    while (answered < 3 && Date.now() < deadline && proc.exitCode === null) {
      const parent = hex(parents.length + 1, 16);
      const status = await chat(llmPort!, `00-${traceId}-${parent}-01`);
      if (status === 200) {
        parents.push(parent);
        answered++;
      } else await new Promise((r) => setTimeout(r, 100));
    }
    expect(answered, err).toBe(3);

    // the run's /metrics, read from its target while it runs
    let text = '';
    while (Date.now() < deadline && proc.exitCode === null) {
      text = await fetch(`${feed}/metrics`)
        .then((r) => r.text())
        .catch(() => '');
      // both: the agent's tokens, and a workload request that has ended (its first may take a while on a busy machine)
      if (
        text.includes('arena_llm_tokens_total{direction="input",model="gpt-obs"} 21') &&
        /^arena_workload_requests_total\{outcome="succeeded"\} [1-9]/m.test(text)
      )
        break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(text).toContain('arena_llm_tokens_total{direction="input",model="gpt-obs"} 21');
    expect(text).toContain('arena_llm_tokens_total{direction="output",model="gpt-obs"} 6');
    expect(text).toMatch(/^arena_workload_requests_total\{outcome="succeeded"\} [1-9]/m);

    const r = await proc;
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/[1-9]\d* span\(s\) exported to/);
    const calls = receiver.spans().filter((s) => s.traceId === traceId);
    expect(calls.map((s) => s.parentSpanId).sort()).toEqual(parents);
    for (const span of calls) {
      expect(span.kind).toBe(3); // CLIENT
      expect(span.attributes).toMatchObject({ 'gen_ai.request.model': 'gpt-obs', 'gen_ai.usage.input_tokens': 7 });
    }
    // the run's own span went out too, beside them
    expect(receiver.spans().some((s) => s.name === 'chaos scenario')).toBe(true);
  });
});
