import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Client as ClientType } from '../../../src/index.js';
import { pkg } from './pkg.js';

const { Client, NotConfiguredError, ClientClosedError, ClientCloseError, UsageError, WorkflowClient, AgentRegistry } =
  pkg;

let client: ClientType | undefined;
afterEach(async () => {
  await client?.close().catch(() => undefined);
  client = undefined;
});

describe('Client', () => {
  it('builds configured services lazily, once, and refuses unconfigured ones with a typed error', () => {
    client = new Client({ llm: { provider: 'local' } });
    expect(client.configuredServices()).toEqual(['llm']);
    expect(client.llm()).toBe(client.llm());
    for (const name of ['agent', 'memory', 'retrieval', 'workflow'] as const) {
      expect(() => client![name]()).toThrow(NotConfiguredError);
    }
    const err = (() => {
      try {
        client!.memory();
      } catch (e) {
        return e as InstanceType<typeof NotConfiguredError>;
      }
    })();
    expect(err).toMatchObject({ code: 'not_configured', service: 'memory' });
  });

  it('rejects an invalid config listing every problem with its path', () => {
    let error: unknown;
    try {
      new Client({
        llm: { provider: 'gpt' as never, retries: -1 },
        agents: [{ id: 'a', memory: true }, { id: 'a' }],
        bogus: 1,
      } as never);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(UsageError);
    const paths = (error as { details: { errors: { path: string }[] } }).details.errors.map((p) => p.path).sort();
    expect(paths).toEqual(['agents[0].memory', 'agents[1].id', 'bogus', 'llm.provider', 'llm.retries']);
  });

  it('answers through agents that remember the conversation and ground answers in retrieved documents', async () => {
    client = new Client({
      llm: { provider: 'local' },
      memory: {},
      retrieval: {
        documents: [{ id: 'doc-leases', text: 'Leader election uses leases that expire after the lease time' }],
      },
      agents: [
        { id: 'calc', system_prompt: 'Compute.' },
        { id: 'chat', memory: true, retrieval: 2 },
      ],
    });
    const sum = await client.agent().execute('calc', 'What is 6 * 7?');
    expect(sum).toMatchObject({ agent_id: 'calc', text: 'The answer is 42.', provider: 'local' });

    const first = await client.agent().execute('chat', 'how does leader election work');
    expect(first.sources).toEqual(['doc-leases']);
    expect(first.session_id).toBe('agent-chat');
    await client.agent().execute('chat', 'echo again');
    expect(
      client
        .memory()
        .messages('agent-chat')
        .map((m) => m.content),
    ).toEqual(['how does leader election work', first.text, 'echo again', 'again']);
    await expect(client.agent().execute('ghost', 'hi')).rejects.toMatchObject({ code: 'agent_not_found' });
  });

  it('runs workflows with the built-in agent types', async () => {
    client = new Client({ llm: { provider: 'local' }, workflow: { max_parallel: 2 } });
    const run = await new WorkflowClient(client).execute(
      {
        id: 'math',
        steps: [
          { id: 'ask', agent_type: 'llm', input: 'What is {{input}}?' },
          { id: 'wrap', agent_type: 'echo', depends_on: ['ask'], input: { result: '{{steps.ask}}' } },
        ],
      },
      '2 + 3',
    );
    expect(run.status).toBe('completed');
    expect(run.output).toEqual({ result: 'The answer is 5.' });
    expect(client.workflow().agentRegistry.types()).toEqual(['echo', 'llm']);
  });

  it('uses a custom agent registry when given one', async () => {
    const registry = new AgentRegistry().register('shout', () => ({
      execute: async (ctx) => String(ctx.workflowInput).toUpperCase(),
    }));
    client = new Client({
      workflow: { agent_registry: registry, workflows: [{ id: 'w', steps: [{ id: 's', agent_type: 'shout' }] }] },
    });
    const r = await client.workflow().execute({ workflow_id: 'w', input: 'hey' });
    expect(r).toMatchObject({ status: 'completed', output: 'HEY', error: null });
  });

  it('probes every configured service for real and reports latency and errors', async () => {
    client = new Client({
      llm: {
        provider: 'openai-compatible',
        base_url: 'http://127.0.0.1:9/v1',
        model: 'm',
        retries: 0,
        timeout_ms: '2s',
      },
      memory: {},
      retrieval: {},
      workflow: {},
    });
    const report = await client.health();
    expect(report.healthy).toBe(false);
    expect(report.services.llm.status).toBe('error');
    expect(report.services.llm.error).toBeTruthy();
    for (const name of ['memory', 'retrieval', 'workflow']) {
      expect(report.services[name].status).toBe('ok');
      expect(report.services[name].latency_ms).toBeGreaterThanOrEqual(0);
    }
    expect(report.services.agent.status).toBe('not_configured');
    expect(await client.ping()).toBe(false);
    expect(client.memory().listSessions()).toEqual([]); // probes clean up after themselves

    const healthy = new Client({ llm: {}, agents: [{ id: 'a' }] });
    expect(await healthy.ping()).toBe(true);
    await healthy.close();
    expect(await healthy.ping()).toBe(false);
  });

  it('starts runtimes and stops every built service once on close; accessors throw afterwards', async () => {
    client = new Client({ llm: {}, workflow: {} });
    const runtime = client.runtime({ seed: 7 });
    expect(runtime.isRunning).toBe(true);
    // healthy once its agents' MCP sessions have connected, which a loaded machine can delay past the first look
    await vi.waitFor(
      async () => expect((await client!.health()).services['runtime-1']).toMatchObject({ status: 'ok' }),
      { timeout: 5000, interval: 20 },
    );
    client.workflow();
    await client.close();
    expect(runtime.isRunning).toBe(false);
    expect(() => client!.llm()).toThrow(ClientClosedError);
    expect(() => client!.runtime()).toThrow(ClientClosedError);
    await client.close(); // idempotent
  });

  it('collects every close failure into one ClientCloseError and still stops the rest', async () => {
    client = new Client({});
    const a = client.runtime({ seed: 1 });
    const b = client.runtime({ seed: 2 });
    let attempts = 0;
    const realStop = b.stop.bind(b);
    Object.assign(b, {
      stop: async () => {
        attempts++;
        await realStop();
        throw new Error('disk full while flushing');
      },
    });
    const first = await client.close().catch((e: unknown) => e);
    expect(first).toBeInstanceOf(ClientCloseError);
    expect((first as InstanceType<typeof ClientCloseError>).failures.map((f) => f.service)).toEqual(['runtime-2']);
    expect((first as InstanceType<typeof ClientCloseError>).errors).toHaveLength(1);
    expect(a.isRunning).toBe(false);
    const second = await client.close().catch((e: unknown) => e);
    expect(second).toBe(first);
    expect(attempts).toBe(1);
  });
});
