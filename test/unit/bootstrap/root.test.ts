import { afterEach, describe, expect, it } from 'vitest';
import { bootstrap, RootLifecycleError, type ArenaRoot } from '../../../src/bootstrap/index.js';
import { createFakeTarget } from '../../helpers/fake-target.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

let root: ArenaRoot | undefined;
afterEach(async () => {
  await root?.stop().catch(() => undefined);
  root = undefined;
});

describe('bootstrap', () => {
  it('assembles the embedded runtime and runs arena actions through the root', async () => {
    root = await bootstrap({ seed: 7 });
    await expect(root.executeArenaAction({ type: 'kill_agent', target_id: 'agent-2' })).rejects.toThrow(/not started/);
    await root.start();
    expect(root.status()).toMatchObject({ running: true, target: 'embedded' });
    const result = await root.executeArenaAction({ type: 'kill_agent', target_id: 'agent-2' });
    expect(result).toMatchObject({ success: true, action: { type: 'kill_agent', target_id: 'agent-2' } });
    const missing = await root.executeArenaAction({ type: 'kill_agent', target_id: 'agent-42' });
    expect(missing.success).toBe(false);
    await expect(root.executeArenaAction({ type: 'explode' })).rejects.toThrow(/unknown action type/);
    expect(root.arena.history()).toHaveLength(2);
    expect((await root.runtime.describe()).agents.map((a) => a.id)).toContain('orchestrator-2');
    const llm = await root.llm.complete({ messages: [{ role: 'user', content: 'hello' }] });
    expect(llm.text.length).toBeGreaterThan(0);
    expect((await root.mcp.listTools()).length).toBeGreaterThan(0);
  });

  it('stop reverts active faults, waits for in-flight actions, and is idempotent', async () => {
    root = await bootstrap({ seed: 3 });
    await root.start();
    await root.executeArenaAction({ type: 'slow_agent', target_id: 'agent-3', metadata: { duration: '1m' } });
    await root.executeArenaAction({ type: 'network_partition', target_id: 'agent-2', metadata: { duration: '1m' } });
    expect((await root.arena.activeFaults()).length).toBeGreaterThanOrEqual(2);
    const pending = root.executeArenaAction({
      type: 'pause_agent',
      target_id: 'agent-1',
      metadata: { duration: '1m' },
    });
    const stopped = root.stop();
    await pending;
    await stopped;
    await root.stop();
    expect(root.isRunning).toBe(false);
    expect(await root.arena.activeFaults()).toEqual([]);
    await expect(root.start()).rejects.toThrow(/bootstrap a new one/);
  });

  it('reports every module that failed to stop instead of swallowing it', async () => {
    const fake = createFakeTarget();
    const realStop = fake.stop.bind(fake);
    fake.stop = async () => {
      await realStop();
      throw new Error('target refused to stop');
    };
    root = await bootstrap({ targetFactory: () => fake });
    await root.start();
    const err = await root.stop().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(RootLifecycleError);
    expect((err as RootLifecycleError).errors.map((e) => e.module)).toEqual(['target']);
    expect((err as Error).message).toContain('target refused to stop');
    root = undefined;
  });

  it('wires the services the HTTP groups need', async () => {
    root = await bootstrap();
    await root.start();
    const x = root.services;
    x.retrieval.add([{ id: 'd1', text: 'The supervisor restarts a killed agent.' }]);
    const events = [];
    for await (const e of root.stream.processStream(
      { query: 'who restarts a killed agent?', session_id: 'chat-1' },
      new AbortController().signal,
    ))
      events.push(e);
    expect(events.map((e) => e.event)).toEqual(['session', 'retrieval', 'answer', 'memory']);
    expect(x.memory.messages('chat-1')).toHaveLength(2);
    const run = (await x.workflows.execute('answer-question', { question: 'who restarts agents?' })) as {
      status: string;
    };
    expect(run.status).toBe('completed');
    expect(x.workflows.executions('answer-question')).toHaveLength(1);
  });

  it('keeps arena events in a SQLite store across roots, so stream ids continue', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'arena-root-'));
    try {
      const path = join(dir, 'arena.db');
      root = await bootstrap({ eventStore: { kind: 'sqlite', path } });
      await root.start();
      await root.executeArenaAction({ type: 'kill_agent', target_id: 'agent-2' });
      await root.stop();
      root = await bootstrap({ eventStore: { kind: 'sqlite', path } });
      await root.start();
      await root.executeArenaAction({ type: 'kill_agent', target_id: 'agent-3' });
      const store = root.services.eventStore;
      expect((await store.read('arena')).map((e) => e.version)).toEqual([1, 2]);
      await root.stop();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('stop interrupts a running scenario, which reverts its faults', async () => {
    root = await bootstrap();
    await root.start();
    const x = root.services;
    const text =
      'name: long\nconfig: { cooldown: 1m }\nactions:\n  - label: slow\n    action: { type: slow_agent, target_id: agent-2, metadata: { duration: 10m } }\n';
    const run = x.scenarios.run(text, new AbortController().signal) as Promise<{ status: string }>;
    // after the default 1 s warmup; generous for a loaded machine
    for (let i = 0; i < 1000 && (await root.arena.activeFaults()).length === 0; i++)
      await new Promise((r) => setTimeout(r, 10));
    expect((await root.arena.activeFaults()).length).toBe(1);
    await root.stop();
    expect((await run).status).toBe('interrupted');
    expect(await root.arena.activeFaults()).toEqual([]);
  });

  it('rejects an invalid strategy with a typed error before anything starts', async () => {
    await expect(bootstrap({ strategy: { supervisor: { enabled: 'yes' } } })).rejects.toMatchObject({ exitCode: 2 });
  });
});
