/**
 * `arena proxy llm` as a user runs it: the real bin/arena.js, a stand-in
 * upstream, the official openai client through the proxy, the control port
 * over HTTP, and SIGINT to stop.
 */
import { LLM_ERROR_TYPES } from '../../src/protocol/llm-faults.js';
import { execa, type ResultPromise } from 'execa';
import { createServer } from 'node:net';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { arena, ARENA_BIN, REPO_ROOT } from '../helpers/cli.js';
import { startStandIn, type StandIn } from '../helpers/llm-upstream.js';

let upstream: StandIn | undefined;
let child: ResultPromise | undefined;
afterEach(async () => {
  if (child && child.exitCode === null) {
    child.kill('SIGKILL');
    await child.catch(() => undefined);
  }
  child = undefined;
  await upstream?.close();
  upstream = undefined;
});

/** starts the proxy and resolves with its URLs once it says where it listens */
async function startProxy(args: string[]): Promise<{ proxyUrl: string; controlUrl: string; stdout: () => string }> {
  child = execa('node', [ARENA_BIN, 'proxy', 'llm', ...args], {
    cwd: REPO_ROOT,
    reject: false,
    extendEnv: false,
    env: { PATH: process.env.PATH ?? '', NO_COLOR: '1', CI: '1' },
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  const started = performance.now();
  while (!out.includes('press Ctrl-C')) {
    if (child.exitCode !== null || performance.now() - started > 10_000) throw new Error(`proxy did not start: ${out}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return {
    proxyUrl: /llm proxy on (\S+)/.exec(out)![1]!,
    controlUrl: /control on (\S+)/.exec(out)?.[1] ?? '',
    stdout: () => out,
  };
}

describe('arena proxy llm', () => {
  it('injects --fault rate_limit --first-n 1, reports the retry on the control port, stops on SIGINT with a summary', async () => {
    upstream = await startStandIn();
    const { proxyUrl, controlUrl, stdout } = await startProxy([
      '--upstream',
      upstream.url,
      '--listen',
      '0',
      '--control',
      '0',
      '--fault',
      'rate_limit',
      '--first-n',
      '1',
      '--retry-after',
      '0.1',
      '--seed',
      '3',
    ]);
    expect(stdout()).toContain('arena: fault rate_limit active (probability 1, first_n 1, retry_after_s 0.1)');
    expect(stdout()).toContain('arena: seed 3');

    const client = new OpenAI({
      apiKey: 'k',
      baseURL: `${proxyUrl}/v1`,
      maxRetries: 1,
      defaultHeaders: { 'x-arena-client': 'agent-7' },
    });
    const answer = await client.chat.completions.create({
      model: 'gpt-test',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(answer.choices[0]!.message.content).toBe('Hello from the');
    expect(upstream.requests).toHaveLength(1);

    const stats = (await (await fetch(`${controlUrl}/v1/stats`)).json()) as { clients: unknown[] };
    expect(stats.clients).toEqual([
      expect.objectContaining({ client: 'agent-7', requests: 2, retries: 1, retry_after_honoured: true }),
    ]);
    // both calls recorded: the 429 the fault answered, then the SDK's retry with the upstream's usage
    const calls = (await (await fetch(`${controlUrl}/v1/calls`)).json()) as { records: unknown[] };
    expect(calls.records).toEqual([
      expect.objectContaining({ seq: 1, kind: 'llm', client: 'agent-7', ok: false, faulted: true }),
      expect.objectContaining({ seq: 2, ok: true, faulted: false, tokens: { input: 5, output: 3 } }),
    ]);
    const extra = await fetch(`${controlUrl}/v1/faults`, {
      method: 'POST',
      body: JSON.stringify({ id: 'x', type: 'llm_failure', params: { error_type: 'nope' } }),
    });
    expect(extra.status).toBe(400);

    child!.kill('SIGINT');
    const result = await child!;
    expect(result.exitCode).toBe(0);
    expect(stdout()).toContain('arena:   agent-7: 2 requests, 1 retries, retry-after honoured');
    expect(stdout()).toContain('tokens 5 in / 3 out (0 answers without usage)');
    expect(stdout()).toContain('arena: stopped');
  });

  it('a port in use (proxy or control) is exit 2 naming the port', async () => {
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const port = (blocker.address() as { port: number }).port;
    try {
      const result = await arena(['proxy', 'llm', '--upstream', 'http://127.0.0.1:9', '--listen', String(port)], {
        timeout: 15_000,
      });
      expect(result.exitCode).toBe(2);
      expect(result.stderr).toContain(`arena: port ${port} on 127.0.0.1 is already in use`);
      const control = await arena(
        ['proxy', 'llm', '--upstream', 'http://127.0.0.1:9', '--listen', '0', '--control', String(port)],
        { timeout: 15_000 },
      );
      expect(control.exitCode).toBe(2);
      expect(control.stderr).toContain(`arena: control port ${port} on 127.0.0.1 is already in use`);
    } finally {
      await new Promise<void>((r) => blocker.close(() => r()));
    }
  });

  it('an unknown error type is exit 2 listing the valid ones; a bad flag is exit 2', async () => {
    const unknown = await arena(
      ['proxy', 'llm', '--upstream', 'http://127.0.0.1:9', '--listen', '0', '--fault', 'meltdown'],
      { timeout: 15_000 },
    );
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toContain(`--fault: unknown error type "meltdown" (valid: ${LLM_ERROR_TYPES.join(', ')})`);
    // a parameter of another error type is refused, naming the flag
    const stray = await arena(
      ['proxy', 'llm', '--upstream', 'http://127.0.0.1:9', '--listen', '0', '--fault', 'rate_limit', '--keep', '0.5'],
      { timeout: 15_000 },
    );
    expect(stray.exitCode).toBe(2);
    expect(stray.stderr).toContain('--keep: only truncate takes it, not rate_limit');
    const orphan = await arena(['proxy', 'llm', '--upstream', 'http://127.0.0.1:9', '--first-n', '2'], {
      timeout: 15_000,
    });
    expect(orphan.exitCode).toBe(2);
    expect(orphan.stderr).toContain('--first-n needs --fault ERROR_TYPE');
    const missing = await arena(['proxy', 'llm'], { timeout: 15_000 });
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain("required option '--upstream <url>' not specified");
  });
});
