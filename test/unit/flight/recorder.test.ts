import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEmbeddedTarget } from '../../../src/targets/embedded/index.js';
import { Injector } from '../../../src/arena/injector.js';
import { ArenaService } from '../../../src/arena/service.js';
import { createAction } from '../../../src/arena/actions.js';
import { ACTION_TYPES, type Result } from '../../../src/arena/action.js';
import type { Target } from '../../../src/arena/providers.js';
import { MemoryEventStore } from '../../../src/events/memory.js';
import { SqliteEventStore } from '../../../src/events/sqlite.js';
import { FlightRecorder } from '../../../src/flight/recorder.js';
import { DIAGNOSTIC_TABLE, diagnose, FLIGHT_CATEGORIES } from '../../../src/flight/diagnostics.js';
import { FlightService } from '../../../src/flight/service.js';
import { ManualClock } from '../../../src/shared/clock.js';
import { UsageError } from '../../../src/shared/errors.js';

let target: Target | undefined;
let dir = '';
afterEach(async () => {
  await target?.stop();
  target = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = '';
});

async function arenaWith(recorder: FlightRecorder): Promise<ArenaService> {
  target = createEmbeddedTarget({ workloadRate: 50 });
  await target.start();
  // the first election takes a moment after start
  for (let i = 0; i < 200 && !(await target.observer.health({ kind: 'leader' })).healthy; i++)
    await new Promise((r) => setTimeout(r, 5));
  return new ArenaService({
    injector: new Injector(target.runtime, target.dag),
    observer: target.observer,
    flightBridge: recorder,
  });
}

function failed(type: (typeof ACTION_TYPES)[number], target_id: string, error: string, at?: string): Result {
  return { success: false, action: createAction(type, target_id, at ? { created_at: at } : {}), error, duration_ms: 1 };
}

describe('FlightRecorder on a real arena', () => {
  it('records every action, and a diagnostic + failure evidence for each failed one', async () => {
    const store = new MemoryEventStore();
    const recorder = new FlightRecorder({ store, session: 'run-1' });
    const service = await arenaWith(recorder);

    const leader = await service.execute(createAction('kill_leader'));
    const victim = ['agent-1', 'agent-3'].find((a) => a !== leader.metadata?.killed_leader_id)!;
    const ok = await service.execute(createAction('kill_agent', victim));
    const ghost = await service.execute(createAction('kill_agent', 'ghost'));
    await service.execute(createAction('pause_agent', 'agent-2'));
    const again = await service.execute(createAction('pause_agent', 'agent-2'));
    await recorder.flush();
    expect(leader.success).toBe(true);
    expect(ok.success).toBe(true);
    expect(ghost.success).toBe(false);
    expect(again.success).toBe(false);

    const timeline = await recorder.timeline();
    expect(timeline.map((r) => [r.type, r.target_id, r.success])).toEqual([
      ['kill_leader', '', true],
      ['kill_agent', victim, true],
      ['kill_agent', 'ghost', false],
      ['pause_agent', 'agent-2', true],
      ['pause_agent', 'agent-2', false],
    ]);
    expect(timeline.every((r) => r.session === 'run-1')).toBe(true);
    // the leader kill is attributed to the agent that was actually killed
    expect(timeline[0]!.agent_id).toBe(leader.metadata!.killed_leader_id);

    const diagnostics = await recorder.diagnostics();
    expect(diagnostics.map((d) => [d.action_id, d.category, d.failure_reason])).toEqual([
      [ghost.action.id, 'process', 'target_missing'],
      [again.action.id, 'scheduling', 'target_state'],
    ]);
    expect(diagnostics[0]!.root_cause).toMatch(/ghost/);
    expect(diagnostics[0]!.suggested_fixes.join(' ')).toMatch(/supervisor/);

    const evidence = await recorder.evidence();
    expect(evidence).toHaveLength(2);
    expect(evidence.every((e) => e.source === 'chaos' && e.kind === 'failure')).toBe(true);
    expect(evidence[1]!.summary).toMatch(/pause_agent on agent-2 failed: .*already paused/);

    expect(await recorder.timeline({ agent: 'agent-2' })).toHaveLength(2);
    expect((await recorder.diagnostics({ category: 'scheduling' })).map((d) => d.action_id)).toEqual([again.action.id]);
    expect(await recorder.timeline({ success: false })).toHaveLength(2);
  });

  it('persists in SQLite and is readable by another recorder after reopening', async () => {
    dir = mkdtempSync(join(tmpdir(), 'arena-flight-'));
    const path = join(dir, 'arena.db');
    const store = new SqliteEventStore({ path, synchronous: 'NORMAL' });
    const recorder = new FlightRecorder({ store });
    const service = await arenaWith(recorder);
    await service.execute(createAction('kill_agent', 'nobody'));
    await service.execute(createAction('remove_node', 'plan'));
    await recorder.flush();
    store.close();

    const reopened = new SqliteEventStore({ path });
    try {
      const reader = new FlightRecorder({ store: reopened });
      const timeline = await reader.timeline();
      expect(timeline.map((r) => r.type)).toEqual(['kill_agent', 'remove_node']);
      expect(timeline[0]!.session).toBe(recorder.session);
      expect((await reader.diagnostics()).map((d) => d.target_id)).toEqual(['nobody']);
      expect(await reader.timeline({ category: 'workflow' })).toHaveLength(1);
    } finally {
      reopened.close();
    }
  });
});

describe('FlightRecorder queries', () => {
  it('filters by time range (ISO or a duration back from now), agent, category and limit', async () => {
    const clock = new ManualClock();
    const recorder = new FlightRecorder({ store: new MemoryEventStore(), clock });
    await recorder.record(failed('kill_agent', 'agent-1', 'agent agent-1 not found'));
    await clock.advance(10 * 60_000);
    await recorder.record(
      failed('tool_timeout', 'agent-2', 'tool_timeout: agent agent-2 is stopped; the fault cannot be applied'),
    );
    await clock.advance(60_000);
    await recorder.record({ success: true, action: createAction('llm_failure', 'agent-3'), duration_ms: 2 });

    expect((await recorder.timeline({ since: '5m' })).map((r) => r.type)).toEqual(['tool_timeout', 'llm_failure']);
    expect((await recorder.timeline({ since: '30s' })).map((r) => r.type)).toEqual(['llm_failure']);
    expect((await recorder.timeline({ until: '2026-01-01T00:05:00.000Z' })).map((r) => r.type)).toEqual(['kill_agent']);
    expect((await recorder.timeline({ limit: 1 })).map((r) => r.type)).toEqual(['llm_failure']);
    expect((await recorder.diagnostics({ category: 'tooling' })).map((d) => d.failure_reason)).toEqual([
      'target_state',
    ]);
    expect(await recorder.diagnostics({ agent: 'agent-3' })).toEqual([]);
    await expect(recorder.timeline({ since: 'yesterday' })).rejects.toBeInstanceOf(UsageError);
    await expect(recorder.timeline({ category: 'nope' })).rejects.toThrow(/unknown category "nope"/);
    await expect(recorder.timeline({ type: 'kill_agnet' })).rejects.toThrow(/unknown action type "kill_agnet"/);
    const summary = await recorder.summary();
    expect(summary).toMatchObject({
      actions: 3,
      failed: 2,
      by_category: { process: { actions: 1, failed: 1 }, llm: { actions: 1, failed: 0 } },
    });
  });
});

describe('diagnostics table', () => {
  it('has a category, a root cause and fixes for every fault kind', () => {
    for (const type of ACTION_TYPES) {
      const rule = DIAGNOSTIC_TABLE[type];
      expect(FLIGHT_CATEGORIES).toContain(rule.category);
      expect(rule.root_cause.length).toBeGreaterThan(20);
      expect(rule.suggested_fixes.length).toBeGreaterThan(0);
    }
    expect(new Set(ACTION_TYPES.map((t) => DIAGNOSTIC_TABLE[t].category)).size).toBeGreaterThanOrEqual(10);
  });

  it('refines the cause from the error text', () => {
    expect(
      diagnose(failed('kill_leader', '', 'kill_leader cannot be applied: there is no running leader right now'))
        .failure_reason,
    ).toBe('target_missing');
    expect(diagnose(failed('remove_edge', 'plan', 'remove_edge needs source_id')).failure_reason).toBe('invalid_input');
    const d = diagnose(failed('memory_corrupt', 'agent-1', 'disk on fire'));
    expect(d).toMatchObject({ category: 'state', failure_reason: 'unknown' });
    expect(d.root_cause).toMatch(/disk on fire/);
  });
});

describe('FlightService', () => {
  it('answers timeline/diagnostics queries and replays recorded actions against the target', async () => {
    const recorder = new FlightRecorder({ store: new MemoryEventStore() });
    const arena = await arenaWith(recorder);
    const first = await arena.execute(createAction('kill_agent', 'ghost'));
    await arena.execute(createAction('slow_agent', 'agent-1', { metadata: { duration: '50ms' } }));
    await recorder.flush();
    const service = new FlightService(recorder, { execute: (a) => arena.execute(a) });

    expect((await service.timeline({ limit: '1' })).records.map((r) => r.type)).toEqual(['slow_agent']);
    const diag = await service.diagnostics({});
    expect(diag.count).toBe(1);
    expect(diag.summary.actions).toBe(2);
    expect((await service.record(first.action.id)).target_id).toBe('ghost');
    await expect(service.record('nope')).rejects.toMatchObject({ status: 404 });
    await expect(service.timeline({ limit: '0' })).rejects.toBeInstanceOf(UsageError);

    const replay = await service.replay({ failed_only: true });
    expect(replay).toMatchObject({ replayed: 1, succeeded: 0 });
    expect(replay.results[0]!.action.id).not.toBe(first.action.id);
    await recorder.flush();
    expect(await recorder.timeline()).toHaveLength(3);
    await expect(new FlightService(recorder).replay({})).rejects.toThrow(/read-only/);
  });
});
