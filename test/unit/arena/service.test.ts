import { afterEach, describe, expect, it } from 'vitest';
import { ArenaService, type ArenaEvent } from '../../../src/arena/service.js';
import { Injector } from '../../../src/arena/injector.js';
import { createAction } from '../../../src/arena/actions.js';
import { MemoryEventStore } from '../../../src/events/memory.js';
import type { Evidence } from '../../../src/arena/bridges.js';
import type { Result } from '../../../src/arena/action.js';
import { createFakeTarget, type FakeTarget } from '../../helpers/fake-target.js';

let target: FakeTarget | undefined;
afterEach(async () => target?.stop());

function setup(extra: Partial<ConstructorParameters<typeof ArenaService>[0]> = {}) {
  target = createFakeTarget();
  return new ArenaService({ injector: new Injector(target.runtime, target.dag), observer: target.observer, ...extra });
}

describe('ArenaService', () => {
  it('executes, records history, stats and metrics', async () => {
    const service = setup();
    const ok = await service.execute(createAction('kill_agent', 'agent-2'));
    expect(ok.success).toBe(true);
    expect(ok.duration_ms).toBeGreaterThanOrEqual(0);
    const bad = await service.execute(createAction('kill_agent', 'agent-9'));
    expect(bad).toMatchObject({ success: false, error: expect.stringContaining('agent-9') });
    expect(service.history()).toHaveLength(2);
    expect(service.stats()).toMatchObject({
      total: 2,
      succeeded: 1,
      failed: 1,
      success_rate: 0.5,
      by_type: { kill_agent: { total: 2 } },
    });
    expect(service.metrics().by_type.kill_agent).toMatchObject({ total: 2, successes: 1, failures: 1 });
    await service.execute(createAction('pause_agent', 'agent-3', { metadata: { duration: '1s' } }));
    expect(service.stats()).toEqual({
      total: 3,
      succeeded: 2,
      failed: 1,
      success_rate: 2 / 3,
      by_type: {
        kill_agent: { total: 2, succeeded: 1, failed: 1 },
        pause_agent: { total: 1, succeeded: 1, failed: 0 },
      },
      dropped: 0,
      sink_errors: 0,
    });
    service.reset();
    expect(service.history()).toEqual([]);
    expect(service.stats()).toEqual({
      total: 0,
      succeeded: 0,
      failed: 0,
      success_rate: 0,
      by_type: {},
      dropped: 0,
      sink_errors: 0,
    });
    expect(service.metrics()).toEqual({ total: 0, successes: 0, failures: 0, by_type: {} });
  });

  it('reports leader id in result metadata', async () => {
    const service = setup();
    const r = await service.execute(createAction('kill_leader'));
    expect(r.metadata).toMatchObject({ killed_leader_id: 'agent-1' });
  });

  it('keeps a report of its own: a provider that reuses its report object does not change a Result already kept', async () => {
    target = createFakeTarget();
    const kept = { paused_agent_id: 'agent-2', fault_id: 'f-1' };
    // a provider that hands out the one object it keeps, and rewrites it for the next call
    const runtime = {
      ...target.runtime,
      pauseAgent: async (id: string) => Object.assign(kept, { paused_agent_id: id }),
      resumeAgent: async () => Object.assign(kept, { resumed: true }),
    };
    const service = new ArenaService({ injector: new Injector(runtime, target.dag) });
    const paused = await service.execute(createAction('pause_agent', 'agent-2'));
    await service.execute(createAction('resume_agent', 'agent-2'));
    await service.execute(createAction('pause_agent', 'agent-3'));
    expect(paused.metadata).toEqual({ paused_agent_id: 'agent-2', fault_id: 'f-1' });
    expect(service.history()[0]!.metadata).toEqual({ paused_agent_id: 'agent-2', fault_id: 'f-1' });
  });

  it('never throws when a provider is missing', async () => {
    const service = new ArenaService({ injector: new Injector() });
    const r = await service.execute(createAction('remove_node', 'plan'));
    expect(r).toMatchObject({ success: false, error: expect.stringContaining('no workflow DAG provider') });
  });

  it('bounds history, dropping the oldest', async () => {
    const service = setup({ historyLimit: 3 });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await service.execute(createAction('kill_agent', `nope-${i}`))).action.id);
    expect(service.history().map((r) => r.action.id)).toEqual(ids.slice(2));
    expect(service.stats()).toMatchObject({ total: 5, dropped: 2 });
  });

  it('appends executed/failed events to the arena stream, after what others wrote', async () => {
    const store = new MemoryEventStore();
    await store.append('arena', [{ type: 'other', data: 1 }], 0); // someone else wrote first
    const service = setup({ eventStore: store });
    await service.execute(createAction('kill_agent', 'agent-2'));
    await service.execute(createAction('kill_agent', 'agent-9'));
    const events = await store.read('arena');
    expect(events.map((e) => [e.version, e.type])).toEqual([
      [1, 'other'],
      [2, 'arena.action.executed'],
      [3, 'arena.action.failed'],
    ]);
    expect((events[1]!.data as Result).action.target_id).toBe('agent-2');
  });

  it('a store that fails for a moment: the append is tried again and the event is recorded, nothing counted', async () => {
    const store = new MemoryEventStore();
    const append = store.append.bind(store);
    let failures = 3;
    store.append = (...args) => (failures-- > 0 ? Promise.reject(new Error('connection reset')) : append(...args));
    const service = setup({ eventStore: store });
    expect((await service.execute(createAction('kill_agent', 'agent-2'))).success).toBe(true);
    expect((await store.read('arena')).map((e) => (e.data as Result).action.target_id)).toEqual(['agent-2']);
    expect(service.stats().sink_errors).toBe(0);
  });

  it('an action the store cannot record is an error to the caller with its result; later ones are refused unapplied until the store answers', async () => {
    const store = new MemoryEventStore();
    const append = store.append.bind(store);
    const streamVersion = store.streamVersion.bind(store);
    let down = true;
    store.append = (...args) => (down ? Promise.reject(new Error('connection refused')) : append(...args));
    store.streamVersion = (id) => (down ? Promise.reject(new Error('connection refused')) : streamVersion(id));
    const service = setup({ eventStore: store, appendRetryMs: 50 });
    const partition = (id: string) => createAction('network_partition', id, { metadata: { duration: '1m' } });

    const lost = await service.execute(partition('agent-2')).catch((e: unknown) => e);
    expect(lost).toMatchObject({
      code: 'event_not_recorded',
      status: 503,
      exitCode: 3,
      message: expect.stringContaining('was not recorded in the event store: connection refused'),
      details: { result: { success: true, action: { target_id: 'agent-2' } } },
    });
    expect(target!.agent('agent-2').partitioned).toBe(true); // it did run: the error says so

    const refused = await service.execute(partition('agent-3')).catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: 'event_store_unavailable', status: 503 });
    expect(target!.agent('agent-3').partitioned).toBe(false); // nothing applied
    expect(service.history().map((r) => r.action.target_id)).toEqual(['agent-2']);

    down = false;
    expect((await service.execute(partition('agent-3'))).success).toBe(true);
    expect((await store.read('arena')).map((e) => (e.data as Result).action.target_id)).toEqual(['agent-3']);
  });

  it('bad input to the store is not retried: the caller is told at once', async () => {
    const store = new MemoryEventStore();
    const service = setup({ eventStore: store, streamId: '' as string });
    const started = performance.now();
    const err = await service.execute(createAction('kill_agent', 'agent-2')).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'event_not_recorded' });
    expect(performance.now() - started).toBeLessThan(10_000); // not the 15 s retry window
  });

  it('keeps the history bound over many trims, in order', async () => {
    const service = setup({ historyLimit: 3 });
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) ids.push((await service.execute(createAction('kill_agent', `nope-${i}`))).action.id);
    expect(service.history().map((r) => r.action.id)).toEqual(ids.slice(-3));
    expect(service.stats()).toMatchObject({ total: 20, dropped: 17 });
  });

  it('another writer appending between two executes, and executes in parallel, lose no event and keep versions consecutive', async () => {
    const store = new MemoryEventStore();
    const service = setup({ eventStore: store });
    await service.execute(createAction('kill_agent', 'nope-1'));
    await store.append('arena', [{ type: 'other', data: 2 }], 1); // the version the service last saw is now stale
    await Promise.all([3, 4, 5].map((i) => service.execute(createAction('kill_agent', `nope-${i}`))));
    const events = await store.read('arena');
    expect(events.map((e) => e.version)).toEqual([1, 2, 3, 4, 5]);
    expect(events.map((e) => (e.type === 'other' ? 'other' : (e.data as Result).action.target_id))).toEqual([
      'nope-1',
      'other',
      'nope-3',
      'nope-4',
      'nope-5',
    ]);
    expect(service.stats().sink_errors).toBe(0);
  });

  it('forwards every result to the flight bridge and failures to the evolution bridge; a throwing bridge does not break execute', async () => {
    const flight: Result[] = [];
    const evolution: Result[] = [];
    const service = setup({
      flightBridge: { record: (r) => void flight.push(r) },
      evolutionBridge: { onFailure: (r) => void evolution.push(r) },
    });
    await service.execute(createAction('kill_agent', 'agent-2'));
    await service.execute(createAction('kill_agent', 'agent-9'));
    expect(flight).toHaveLength(2);
    expect(evolution.map((r) => r.action.target_id)).toEqual(['agent-9']);
    const throwing = setup({
      flightBridge: {
        record: () => {
          throw new Error('disk full');
        },
      },
    });
    expect((await throwing.execute(createAction('kill_agent', 'agent-3'))).success).toBe(true);
    expect(throwing.stats()).toMatchObject({ sink_errors: 1, last_error: 'disk full' });
  });

  it('waits for every sink that has not finished (store, flight, evolution) and counts one that fails later', async () => {
    const store = new MemoryEventStore();
    const done: string[] = [];
    const later =
      (name: string, fail = false) =>
      () =>
        new Promise<void>((resolve, reject) =>
          setTimeout(() => (done.push(name), fail ? reject(new Error(`${name} lost`)) : resolve()), 5),
        );
    const service = setup({
      eventStore: store,
      flightBridge: { record: later('flight') },
      evolutionBridge: { onFailure: later('evolution', true) },
    });
    const result = await service.execute(createAction('kill_agent', 'agent-9'));
    expect(result.success).toBe(false);
    expect(done.sort()).toEqual(['evolution', 'flight']);
    expect(await store.streamVersion('arena')).toBe(1);
    expect(service.stats()).toMatchObject({ sink_errors: 1, last_error: 'evolution lost' });
  });

  it('saves evidence of the state before and after', async () => {
    const saved: Evidence[] = [];
    const service = setup({ evidenceStore: { save: (e) => void saved.push(e) } });
    await service.execute(createAction('kill_agent', 'agent-3'));
    expect(saved[0]!.before.agents.find((a) => a.id === 'agent-3')!.status).toBe('running');
    expect(saved[0]!.after.agents.find((a) => a.id === 'agent-3')!.status).toBe('stopped');
  });

  it('subscribe() yields arena events live until aborted', async () => {
    const service = setup();
    const ac = new AbortController();
    const seen: ArenaEvent[] = [];
    const consumer = (async () => {
      for await (const e of service.subscribe({ signal: ac.signal })) {
        seen.push(e);
        if (seen.length === 2) ac.abort();
      }
    })();
    await service.execute(createAction('kill_agent', 'agent-2'));
    await service.execute(createAction('kill_agent', 'agent-9'));
    await consumer;
    expect(seen.map((e) => [e.seq, e.type])).toEqual([
      [1, 'arena.action.executed'],
      [2, 'arena.action.failed'],
    ]);
  });

  it('revertAll reverts active faults on the target', async () => {
    const service = setup();
    await service.execute(createAction('network_partition', 'agent-2', { metadata: { duration: '1m' } }));
    expect(target!.agent('agent-2').partitioned).toBe(true);
    await service.revertAll();
    expect(target!.agent('agent-2').partitioned).toBe(false);
  });
});
