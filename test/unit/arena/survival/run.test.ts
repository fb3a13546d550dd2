import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../src/shared/clock.js';
import { ConflictError, UsageError } from '../../../../src/shared/errors.js';
import { Injector } from '../../../../src/arena/injector.js';
import { ArenaService } from '../../../../src/arena/service.js';
import {
  MAX_SURVIVAL_ACTIONS,
  resolveSurvivalConfig,
  runSurvival,
  type SurvivalOptions,
} from '../../../../src/arena/survival/run.js';
import type { RunEvent, SurvivalReport } from '../../../../src/arena/report.js';
import { createFakeTarget, type FakeTarget } from '../../../helpers/fake-target.js';
import { MemoryEventStore } from '../../../../src/events/memory.js';

function setup(overrides: { slowKillMs?: number; recovery?: boolean } = {}) {
  const clock = new ManualClock();
  const target = createFakeTarget({ clock, recovery: overrides.recovery ?? true });
  if (overrides.slowKillMs) {
    const stop = target.runtime.stopAgent.bind(target.runtime);
    target.runtime.stopAgent = async (id) => {
      await clock.sleep(overrides.slowKillMs!);
      return stop(id);
    };
  }
  const service = new ArenaService({
    injector: new Injector(target.runtime, target.dag),
    observer: target.observer,
    clock,
  });
  return { clock, target, service };
}

async function drive<T>(clock: ManualClock, promise: Promise<T>, stepMs = 20, maxMs = 60_000): Promise<T> {
  let done = false;
  let value: T | undefined;
  let error: unknown;
  promise.then(
    (v) => ((done = true), (value = v)),
    (e) => ((done = true), (error = e)),
  );
  for (let t = 0; t < maxMs && !done; t += stepMs) await clock.advance(stepMs);
  if (!done) throw new Error('run did not finish');
  if (error) throw error;
  return value!;
}

async function survive(
  options: Partial<SurvivalOptions> & { slowKillMs?: number; recovery?: boolean } = {},
): Promise<{ report: SurvivalReport; events: RunEvent[]; target: FakeTarget }> {
  const { clock, target, service } = setup(options);
  await target.start();
  const events: RunEvent[] = [];
  const report = await drive(
    clock,
    runSurvival(service, { duration: '1s', interval: '100ms', seed: 42, onEvent: (e) => events.push(e), ...options }),
  );
  await target.stop();
  return { report, events, target };
}

const sequence = (r: SurvivalReport) =>
  r.timeline.map((t) => [t.action.type, t.action.target_id, t.action.source_id, t.action.metadata]);

describe('runSurvival', () => {
  it('runs one action per interval at its planned time, measured, and records the seed and drift', async () => {
    const { report, events } = await survive();
    expect(report.actions_run).toBe(10);
    expect(report.timeline.map((t) => t.planned_at)).toEqual([0, 100, 200, 300, 400, 500, 600, 700, 800, 900]);
    for (const t of report.timeline) expect(t.drift_ms).toBeGreaterThanOrEqual(0);
    expect(report.drift.p99_ms).toBeLessThan(25);
    expect(report.seed).toBe(42);
    expect(report.status).toBe('passed');
    expect(report.score.measurements.requests.total).toBeGreaterThan(100);
    expect(report.score.injections.total).toBe(10);
    expect(report.actions_succeeded + report.actions_failed).toBe(10);
    expect(events[0]).toMatchObject({ type: 'run.started', kind: 'survival', seed: 42 });
    expect(events.at(-1)).toMatchObject({ type: 'run.finished', status: 'passed' });
    expect(events.filter((e) => e.type === 'action')).toHaveLength(10);
    expect(events.some((e) => e.type === 'snapshot' && e.agents.length === 5)).toBe(true);
  });

  it('gives the same actions, targets and parameters for the same seed, and others for another seed', async () => {
    const a = await survive({ seed: 7 });
    const b = await survive({ seed: 7 });
    const c = await survive({ seed: 8 });
    expect(sequence(a.report)).toEqual(sequence(b.report));
    expect(sequence(a.report)).not.toEqual(sequence(c.report));
    expect(new Set(a.report.timeline.map((t) => t.action.type)).size).toBeGreaterThan(2);
  });

  it('draws only the requested kinds, with parameters in range and targets that exist', async () => {
    const { report } = await survive({ actions: 'slow_agent,llm_failure,remove_edge', duration: '2s' });
    const agents = ['agent-1', 'agent-2', 'agent-3', 'orchestrator-1', 'orchestrator-2'];
    for (const t of report.timeline) {
      expect(['slow_agent', 'llm_failure', 'remove_edge']).toContain(t.action.type);
      if (t.action.type === 'remove_edge') expect(['fetch', 'plan', 'tool', 'recall']).toContain(t.action.source_id);
      else {
        expect(agents).toContain(t.action.target_id);
        const d = t.action.metadata!.duration as number;
        expect(d).toBeGreaterThanOrEqual(100);
        expect(d).toBeLessThanOrEqual(200);
      }
      if (t.action.type === 'llm_failure')
        expect(['rate_limit', 'overloaded', 'timeout', 'server_error']).toContain(t.action.metadata!.error_type);
    }
  });

  it('runs late ticks late instead of skipping them, and reports the drift', async () => {
    const { report } = await survive({ actions: ['kill_agent'], slowKillMs: 250, duration: '600ms' });
    expect(report.actions_run).toBe(6);
    expect(report.timeline.map((t) => t.index)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(report.drift.max_ms).toBeGreaterThanOrEqual(700);
    expect(report.drift.p50_ms).toBeGreaterThan(0);
  });

  it('reverts every active fault at the end and says which', async () => {
    const { report, events, target } = await survive({ actions: ['pause_agent'], duration: '300ms', cooldown: 0 });
    expect(report.reverted_faults!.length).toBeGreaterThan(0);
    expect(await target.runtime.activeFaults()).toEqual([]);
    expect(target.revertCalls).toBeGreaterThanOrEqual(1);
    expect(events.filter((e) => e.type === 'fault.reverted')).toHaveLength(report.reverted_faults!.length);
  });

  it('stops on abort: partial timeline, faults reverted, status interrupted', async () => {
    const { clock, target, service } = setup();
    await target.start();
    const abort = new AbortController();
    const run = runSurvival(service, {
      duration: '10s',
      interval: '100ms',
      seed: 1,
      actions: ['slow_agent'],
      signal: abort.signal,
    });
    await clock.advance(450);
    abort.abort('SIGINT');
    const report = await drive(clock, run);
    expect(report.status).toBe('interrupted');
    expect(report.actions_run).toBe(5);
    expect(report.error).toContain('SIGINT');
    expect(report.reverted_faults!.length).toBeGreaterThan(0);
    expect(await target.runtime.activeFaults()).toEqual([]);
    await target.stop();
  });

  it('fails the gate below --min-score', async () => {
    const { report } = await survive({ minScore: 90, actions: ['kill_agent'], duration: '300ms', recovery: false });
    expect(report.gate).toMatchObject({ min_score: 90, passed: false });
    expect(report.score.score).toBeLessThan(90);
    expect(report.status).toBe('failed');
  });

  it('rejects bad options with every problem named', async () => {
    const { service } = setup();
    await expect(
      runSurvival(service, { duration: 'soon', interval: 0, actions: 'kill_agent,explode' }),
    ).rejects.toThrow(UsageError);
    await expect(
      runSurvival(service, { duration: 'soon', interval: 0, actions: 'kill_agent,explode' }),
    ).rejects.toThrow(
      /duration: invalid duration "soon".*interval: must be greater than 0.*unknown action type explode/,
    );
  });

  it('replays a recorded timeline exactly', async () => {
    const { report } = await survive({ seed: 99 });
    const { clock, target, service } = setup();
    await target.start();
    const replay = await drive(
      clock,
      runSurvival(service, { duration: 0, interval: 0, seed: 99, timeline: report.timeline }),
    );
    await target.stop();
    expect(sequence(replay)).toEqual(sequence(report));
    expect(replay.timeline.map((t) => t.planned_at)).toEqual(report.timeline.map((t) => t.planned_at));
  });
});

describe('ArenaService survival methods', () => {
  it('allows one run at a time, reports status, and stops on request', async () => {
    const { clock, target, service } = setup();
    await target.start();
    expect(service.getSurvivalStatus()).toMatchObject({ running: false });
    await expect(service.runSurvival({ duration: 'later', interval: '1s' })).rejects.toThrow(UsageError);
    expect(service.getSurvivalStatus().running).toBe(false);
    const run = service.runSurvival({ duration: '5s', interval: '100ms', seed: 3, actions: ['kill_agent'] });
    await expect(service.runSurvival({ duration: '1s', interval: '100ms' })).rejects.toThrow(ConflictError);
    expect(service.getSurvivalStatus()).toMatchObject({ running: true, seed: 3 });
    await clock.advance(350);
    const status = service.getSurvivalStatus();
    expect(status).toMatchObject({ running: true, seed: 3, actions_run: 4 });
    expect(status.progress).toBeGreaterThan(0);
    const stopping = service.stopSurvival();
    const report = await drive(clock, stopping);
    expect(report!.status).toBe('interrupted');
    expect(await run).toBe(report);
    expect(service.getSurvivalStatus()).toMatchObject({ running: false, last_report: report });
    expect(await service.stopSurvival()).toBeUndefined();
    await target.stop();
  });

  it('an action the event store cannot record ends the run in error, faults reverted: not a pass with a lost record', async () => {
    const clock = new ManualClock();
    const target = createFakeTarget({ clock });
    const store = new MemoryEventStore();
    store.append = () => Promise.reject(new Error('connection refused'));
    const service = new ArenaService({
      injector: new Injector(target.runtime, target.dag),
      observer: target.observer,
      eventStore: store,
      clock,
      appendRetryMs: 0,
    });
    await target.start();
    const report = await drive(
      clock,
      runSurvival(service, { duration: '1s', interval: '100ms', seed: 42, actions: ['network_partition'] }),
    );
    await target.stop();
    expect(report.status).toBe('error');
    expect(report.error).toContain('was not recorded in the event store: connection refused');
    expect(await target.runtime.activeFaults()).toEqual([]);
    expect(service.history()).toHaveLength(1); // one ran, and the run stopped there
  });
});

describe('survival history is bounded', () => {
  it('keeps the last ticks of a high-rate run in its timeline; counts and drift cover every tick', async () => {
    const { report } = await survive({ duration: '600ms', interval: '1ms', actions: 'slow_agent', timelineKeep: 40 });
    expect(report.actions_run).toBe(600);
    expect(report.actions_succeeded + report.actions_failed).toBe(600);
    expect(report.timeline).toHaveLength(40);
    expect(report.timeline_dropped).toBe(560);
    expect(report.timeline.map((t) => t.index)).toEqual(Array.from({ length: 40 }, (_, i) => 560 + i));
  });

  it('refuses a plan of more actions than one run may take, saying which interval would do', () => {
    let error: unknown;
    try {
      resolveSurvivalConfig({ duration: '24h', interval: '1ms' });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).message).toBe(
      `invalid survival options: interval 1ms over duration 86400000ms plans 86400000 actions; at most ${MAX_SURVIVAL_ACTIONS} per run (an interval of at least 864ms for this duration)`,
    );
    expect(resolveSurvivalConfig({ duration: '24h', interval: '1s' }).intervalMs).toBe(1000);
  });
});
