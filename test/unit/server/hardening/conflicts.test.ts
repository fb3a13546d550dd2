/**
 * Issue 11: stopping the runtime during a survival run was allowed and the
 * survival then reported "passed". State changes that conflict with a running
 * scenario or survival are a 409; a fault on a stopped runtime is success:false.
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { call, serveRootForTest, stateOf } from './served-root.js';

describe('conflicts with a running survival or scenario', () => {
  it('runtime stop/start, a strategy change and a replay answer 409 while a survival run goes; nothing changes', async () => {
    const { url, root } = await serveRootForTest();
    const started = await call(url, 'POST', '/arena/survival', { duration: '30s', interval: '200ms', seed: 3 });
    expect(started.status, started.text).toBe(202);
    try {
      const before = await stateOf(root);
      for (const [path, body] of [
        ['/api/v1/runtime/stop', undefined],
        ['/api/v1/runtime/start', undefined],
        ['/api/v1/runtime/strategy', { election: { lease_ms: 200 } }],
        ['/api/v1/flight/replay', { all: true }],
      ] as const) {
        const r = await call(url, 'POST', path, body);
        expect(r.status, `${path}: ${r.text}`).toBe(409);
        expect(r.json.error).toContain('survival run');
      }
      expect(JSON.parse(await stateOf(root)).running).toBe(true);
      expect(JSON.parse(await stateOf(root)).strategy).toEqual(JSON.parse(before).strategy);
    } finally {
      const stopped = await call(url, 'POST', '/arena/survival/stop');
      expect(stopped.status, stopped.text).toBe(200);
    }
    // once it has ended, the same requests act
    expect((await call(url, 'POST', '/api/v1/runtime/strategy', { election: { lease_ms: 200 } })).status).toBe(200);
  });

  it('while a scenario runs, a survival start and runtime stop answer 409 naming the scenario run', async () => {
    const { url, server } = await serveRootForTest();
    const yaml = await readFile(new URL('../../../../scenarios/leader-failover.yaml', import.meta.url), 'utf8');
    const run = call(url, 'POST', '/arena/scenario/run', yaml);
    await new Promise((r) => setTimeout(r, 500));
    for (const [path, body] of [
      ['/arena/survival', { duration: '1s' }],
      ['/api/v1/runtime/stop', undefined],
    ] as const) {
      const r = await call(url, 'POST', path, body);
      expect(r.status, `${path}: ${r.text}`).toBe(409);
      expect(r.json.error).toContain('scenario run');
    }
    // shutting down ends the scenario with its partial report
    await server.close();
    expect((await run).status).toBe(200);
  });

  it('a fault on a stopped runtime is a 422 with success:false and the reason, never "ok"', async () => {
    const { url, root } = await serveRootForTest();
    expect((await call(url, 'POST', '/api/v1/runtime/stop')).json.running).toBe(false);
    for (const path of [
      '/arena/agent/agent-1/kill',
      '/arena/leader/kill',
      '/arena/agent/agent-2/pause',
      '/arena/node/plan/remove',
      '/arena/orchestrator/kill',
    ]) {
      const r = await call(url, 'POST', path);
      expect(r.status, `${path}: ${r.text}`).toBe(422);
      expect(r.json.success).toBe(false);
      expect(r.json.error).toContain('the runtime is stopped');
    }
    const generic = await call(url, 'POST', '/arena/actions', { type: 'memory_corrupt', target_id: 'agent-1' });
    expect(generic.status).toBe(422);
    expect(JSON.parse(await stateOf(root)).faults).toEqual([]);
    expect((await call(url, 'POST', '/api/v1/runtime/start')).json.running).toBe(true);
    expect((await call(url, 'POST', '/arena/agent/agent-1/kill')).status).toBe(200);
  });
});
