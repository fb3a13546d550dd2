import { afterEach, describe, expect, it } from 'vitest';
import { ArenaService } from '../../../src/arena/service.js';
import { Injector } from '../../../src/arena/injector.js';
import { createAction } from '../../../src/arena/actions.js';
import { MemoryEventStore } from '../../../src/events/memory.js';
import { ConflictError } from '../../../src/shared/errors.js';
import { ArenaHandler, type SurvivalRunner } from '../../../src/server/arena-handler.js';
import { Router } from '../../../src/server/router.js';
import { createFakeTarget, type FakeTarget } from '../../helpers/fake-target.js';
import { frameJson, openSse } from '../../helpers/sse.js';
import { raw, serve } from './helpers.js';

let target: FakeTarget | undefined;
let handler: ArenaHandler | undefined;
afterEach(async () => {
  await handler?.close();
  await target?.stop();
});

async function setup(
  options: ConstructorParameters<typeof ArenaHandler>[1] = {},
  fake: Parameters<typeof createFakeTarget>[0] = {},
) {
  target = createFakeTarget(fake);
  await target.start();
  const store = new MemoryEventStore();
  const service = new ArenaService({
    injector: new Injector(target.runtime, target.dag),
    observer: target.observer,
    eventStore: store,
  });
  handler = new ArenaHandler(service, options);
  const router = new Router({ log: () => {}, sse: { heartbeatMs: 30 } }).registerArenaEndpoints(handler);
  const s = await serve(router);
  return { s, service, store, router };
}

describe('ArenaHandler', () => {
  it('applies faults through every action route, under /arena and /api/v1/arena', async () => {
    // the DAG is restored long after the test looks at it, however slowly a loaded machine runs it
    const { s, service } = await setup({}, { dagRestoreMs: 60_000 });
    const kill = await raw(s.url, 'POST', '/arena/leader/kill');
    expect(kill.status).toBe(200);
    expect(kill.json()).toMatchObject({
      success: true,
      action: { type: 'kill_leader' },
      metadata: { killed_leader_id: 'agent-1' },
    });
    // killed: still down, or on a starved machine already brought back by the fake's restart
    const leader = target!.agent('agent-1');
    expect(
      leader.status !== 'running' || leader.restarts > 0,
      `${leader.status} after ${leader.restarts} restart(s)`,
    ).toBe(true);
    const slow = await raw(s.url, 'POST', '/api/v1/arena/agent/agent-2/slow', { body: '{"duration":"2s"}' });
    expect(slow.status).toBe(200);
    expect(slow.json().action).toMatchObject({
      type: 'slow_agent',
      target_id: 'agent-2',
      metadata: { duration: '2s' },
    });
    expect(target!.agent('agent-2').slowMs).toBeGreaterThan(0);
    const llm = await raw(s.url, 'POST', '/arena/agent/agent-3/llm-failure', { body: '{"error_type":"overloaded"}' });
    expect(llm.json().action.metadata).toEqual({ error_type: 'overloaded' });
    expect(target!.agent('agent-3').llmFailing).toBe(true);
    expect((await raw(s.url, 'POST', '/arena/agent/agent-3/partition')).status).toBe(200);
    expect((await raw(s.url, 'POST', '/arena/orchestrator/kill')).json().metadata).toMatchObject({
      killed_orchestrator_id: 'orchestrator-1',
    });
    expect((await raw(s.url, 'POST', '/arena/node/plan/remove')).status).toBe(200);
    expect(target!.nodes).not.toContain('plan');
    const edge = await raw(s.url, 'POST', '/arena/edge/remove', { body: '{"from":"tool","to":"answer"}' });
    expect(edge.json().action).toMatchObject({ type: 'remove_edge', source_id: 'tool', target_id: 'answer' });
    const generic = await raw(s.url, 'POST', '/arena/actions', {
      body: JSON.stringify({ type: 'memory_corrupt', target_id: 'agent-2' }),
    });
    expect(generic.status).toBe(200);
    expect(service.history()).toHaveLength(8);
  });

  it('answers 422 with the Result when the fault cannot be applied, 400 for a bad request', async () => {
    const { s, service } = await setup();
    const notPaused = await raw(s.url, 'POST', '/arena/agent/agent-2/resume');
    expect(notPaused.status).toBe(422);
    expect(notPaused.json()).toMatchObject({ success: false, error: expect.stringContaining('agent-2') });
    // an agent, node or edge the target does not have is a bad request, refused before anything runs
    const before = service.history().length;
    for (const [path, body] of [
      ['/arena/agent/agent-9/kill', undefined],
      ['/arena/actions', '{"type":"kill_agent","target_id":"agent-9"}'],
      ['/arena/node/summarise/remove', undefined],
      ['/arena/edge/remove', '{"from":"answer","to":"fetch"}'],
    ] as const) {
      const unknown = await raw(s.url, 'POST', path, body === undefined ? {} : { body });
      expect(unknown.status, path).toBe(400);
      expect(unknown.json(), path).toMatchObject({ code: 'unknown_target', error: expect.stringMatching(/unknown/) });
    }
    expect(service.history()).toHaveLength(before);
    const badParam = await raw(s.url, 'POST', '/arena/agent/agent-2/slow', { body: '{"duration":"soon"}' });
    expect(badParam.status).toBe(400);
    expect(badParam.json().error).toContain('duration');
    const unknownKey = await raw(s.url, 'POST', '/arena/agent/agent-2/kill', { body: '{"duration":"1s"}' });
    expect(unknownKey.status).toBe(400);
    expect(unknownKey.json().error).toContain('takes no body parameters');
    const badAction = await raw(s.url, 'POST', '/arena/actions', { body: '{"type":"explode"}' });
    expect(badAction.status).toBe(400);
    expect(badAction.json().error).toContain('body.type');
    expect((await raw(s.url, 'POST', '/arena/edge/remove', { body: '{"from":"a"}' })).status).toBe(400);
  });

  it('rejects a garbage or unexpected body on the routes that take none, and injects nothing', async () => {
    const { s, service } = await setup();
    for (const path of [
      '/arena/leader/kill',
      '/arena/orchestrator/kill',
      '/arena/node/plan/remove',
      '/arena/survival/stop',
    ]) {
      const garbage = await raw(s.url, 'POST', path, { body: 'not json' });
      expect(garbage.status, path).toBe(400);
      expect(garbage.json().code).toBe('invalid_json');
      const extra = await raw(s.url, 'POST', path, { body: '{"target":"agent-2"}' });
      expect(extra.status, path).toBe(400);
      expect(extra.json().error).toContain('body.target');
    }
    expect(service.history()).toHaveLength(0);
    expect(target!.agent('agent-1').status).toBe('running');
    expect(target!.nodes).toContain('plan');
    const checks = await raw(s.url, 'GET', '/arena/score?checks=maybe');
    expect(checks.status).toBe(400);
    expect(checks.json().error).toContain('checks');
  });

  it('serves history, stats, metrics and a measured score', async () => {
    const { s } = await setup();
    await raw(s.url, 'POST', '/arena/agent/agent-2/kill');
    await raw(s.url, 'POST', '/arena/agent/agent-3/resume');
    expect((await raw(s.url, 'GET', '/arena/history')).json().results).toHaveLength(2);
    expect((await raw(s.url, 'GET', '/arena/stats')).json()).toMatchObject({ total: 2, succeeded: 1, failed: 1 });
    expect((await raw(s.url, 'GET', '/arena/metrics')).json()).toMatchObject({ total: 2 });
    await new Promise((r) => setTimeout(r, 120)); // the fake supervisor restarts agent-2 after 30 ms
    const score = (await raw(s.url, 'GET', '/arena/score?checks=true')).json();
    expect(score.recoveries).toHaveLength(1);
    expect(score.recoveries[0]).toMatchObject({ target: 'agent-2', recovered: true });
    expect(score.consistency_checked).toBe(true);
    expect(score.score).toBeGreaterThan(0);
    expect(score.workload.requests).toBeGreaterThan(0);
  });

  it('streams arena events with store ids and resumes from Last-Event-ID', async () => {
    const { s, service } = await setup();
    const live = await openSse({ url: `${s.url}/arena/stream` });
    expect(live.headers['content-type']).toContain('text/event-stream');
    await live.waitFor((f) => f.event === 'ready');
    await service.execute(createAction('kill_agent', 'agent-2'));
    await service.execute(createAction('kill_agent', 'nobody'));
    await service.execute(createAction('pause_agent', 'agent-3', { metadata: { duration: '50ms' } }));
    const third = await live.waitFor((f) => f.id === '3');
    expect(third.event).toBe('arena.action.executed');
    expect(frameJson<{ id: number; data: { action: { type: string } } }>(third)).toMatchObject({
      id: 3,
      data: { action: { type: 'pause_agent' } },
    });
    expect(live.frames.filter((f) => f.id).map((f) => [f.id, f.event])).toEqual([
      ['1', 'arena.action.executed'],
      ['2', 'arena.action.failed'],
      ['3', 'arena.action.executed'],
    ]);
    await live.waitFor((f) => f.comments.includes('heartbeat'));
    live.close();

    const resumed = await openSse({ url: `${s.url}/api/v1/arena/stream`, headers: { 'Last-Event-ID': '1' } });
    await resumed.waitFor((f) => f.id === '3');
    expect(resumed.frames.filter((f) => f.id).map((f) => f.id)).toEqual(['2', '3']);
    resumed.close();

    const ahead = await openSse({ url: `${s.url}/arena/stream`, headers: { 'Last-Event-ID': '99' } });
    const reset = await ahead.waitFor((f) => f.event === 'reset');
    expect(frameJson(reset)).toMatchObject({ reason: 'unknown_last_event_id', current_id: 3 });
    ahead.close();

    const bad = await raw(s.url, 'GET', '/arena/stream', { headers: { 'Last-Event-ID': 'abc' } });
    expect(bad.status).toBe(400);
  });

  it('says explicitly when Last-Event-ID is older than what is replayed', async () => {
    target = createFakeTarget();
    await target.start();
    const service = new ArenaService({
      injector: new Injector(target.runtime, target.dag),
      eventStore: new MemoryEventStore(),
    });
    handler = new ArenaHandler(service, { replayLimit: 2 });
    const s = await serve(new Router({ log: () => {} }).registerArenaEndpoints(handler));
    for (let i = 0; i < 5; i++) await service.execute(createAction('kill_agent', 'nobody'));
    const conn = await openSse({ url: `${s.url}/arena/stream`, headers: { 'Last-Event-ID': '1' } });
    await conn.waitFor((f) => f.id === '5');
    const reset = conn.frames.find((f) => f.event === 'reset')!;
    expect(frameJson(reset)).toMatchObject({ reason: 'last_event_id_too_old', replay_from: 4 });
    expect(conn.frames.filter((f) => f.id).map((f) => f.id)).toEqual(['4', '5']);
    conn.close();
    // without an observer there is no measured score
    expect((await raw(s.url, 'GET', '/arena/score')).status).toBe(503);
  });

  it('plugs in survival (409 while one runs) and scenarios', async () => {
    let running = false;
    const survival: SurvivalRunner = {
      start: (req) => {
        if (running) throw new ConflictError('a survival run is already going', { code: 'survival_running' });
        running = true;
        return { running, request: req };
      },
      status: () => ({ running }),
      stop: async () => {
        running = false;
        return { stopped: true };
      },
      report: () => ({ score: 1 }),
    };
    const { s } = await setup({ survival });
    expect((await raw(s.url, 'POST', '/arena/scenario/validate', { body: 'name: x' })).json().code).toBe(
      'not_configured',
    );
    expect((await raw(s.url, 'GET', '/arena/flight/timeline')).status).toBe(503);
    const started = await raw(s.url, 'POST', '/arena/survival', {
      body: '{"duration":"1s","interval":"100ms","seed":3}',
    });
    expect(started.status).toBe(202);
    expect(started.json().request).toEqual({ duration: '1s', interval: '100ms', seed: 3 });
    const again = await raw(s.url, 'POST', '/arena/survival', { body: '{}' });
    expect(again.status).toBe(409);
    expect((await raw(s.url, 'POST', '/arena/survival', { body: '{"durration":"1s"}' })).status).toBe(400);
    expect((await raw(s.url, 'GET', '/arena/survival/status')).json()).toEqual({ running: true });
    expect((await raw(s.url, 'POST', '/arena/survival/stop')).json()).toEqual({ stopped: true });
  });

  it('takes the flight recorder and its own API key through its constructor', async () => {
    const { s } = await setup({
      flight: { timeline: (q) => ({ q }), diagnostics: () => ({ ok: true }) },
      apiKey: 'arena-key',
    });
    const key = { headers: { 'X-API-Key': 'arena-key' } };
    expect((await raw(s.url, 'GET', '/arena/flight/timeline?limit=5', key)).json()).toEqual({ q: { limit: '5' } });
    expect((await raw(s.url, 'GET', '/arena/stats')).status).toBe(401);
    expect((await raw(s.url, 'GET', '/arena/stats', key)).status).toBe(200);
  });
});
