import { afterEach, describe, expect, it } from 'vitest';
import {
  loadScenario,
  runScenario,
  runScenarioOnTarget,
  runScenarioReport,
} from '../../../../src/arena/scenario/index.js';
import { ArenaService } from '../../../../src/arena/service.js';
import { Injector } from '../../../../src/arena/injector.js';
import type { RunEvent } from '../../../../src/arena/report.js';
import { createFakeTarget, type FakeTarget } from '../../../helpers/fake-target.js';

let target: FakeTarget | undefined;
afterEach(async () => target?.stop());

async function setup(recovery = true) {
  target = createFakeTarget({ recovery });
  await target.start();
  return new ArenaService({ injector: new Injector(target.runtime, target.dag), observer: target.observer });
}

const FAST = { pollIntervalMs: 5, recoveryDeadlineMs: 300 };

describe('runScenarioReport', () => {
  it('runs warmup → actions → cooldown → checks and measures the score', async () => {
    const service = await setup();
    const scenario = loadScenario(`name: failover
config: { warmup: 40ms, cooldown: 150ms, seed: 7 }
expect: { min_score: 50 }
actions:
  - { label: kill, delay: 20ms, action: { type: kill_leader }, expect_success: true }
  - { label: ghost, action: { type: resume_agent, target_id: agent-3 }, expect_failure: true }
  - { label: slow, delay: 10ms, action: { type: slow_agent, target_id: agent-2, metadata: { duration: 200ms, delay: 80ms } }, depends_on: [kill] }
`);
    const events: RunEvent[] = [];
    const report = await runScenarioReport(service, scenario, { ...FAST, onEvent: (e) => events.push(e) });
    expect(report).toMatchObject({ name: 'failover', seed: 7, status: 'passed', verified: true, passed: 2, failed: 0 });
    expect(report.results.map((r) => [r.label, r.result.success, r.met])).toEqual([
      ['kill', true, true],
      ['ghost', false, true],
      ['slow', true, null],
    ]);
    expect(report.results[0]!.result.metadata).toMatchObject({ killed_leader_id: 'agent-1' });
    expect(report.score.measurements.recovery).toMatchObject({ disruptive_faults: 1, recovered: 1 });
    // how many fit in the window depends on how busy the machine is; the workload ran
    expect(report.score.measurements.requests.total).toBeGreaterThan(0);
    expect(report.score.availability).toBeLessThan(100); // the leader was really gone for a while
    expect(report.gate).toEqual({ min_score: 50, score: report.score.score, passed: true });
    // the timed slow fault held the timeline until it ended by itself: nothing left to revert
    expect(report.reverted_faults).toEqual([]);
    expect(target!.agent('agent-2').slowMs).toBe(0);
    const types = events.map((e) => e.type);
    expect(types[0]).toBe('run.started');
    expect(types.at(-1)).toBe('run.finished');
    expect(events.filter((e) => e.type === 'phase').map((e) => (e as { phase: string }).phase)).toEqual([
      'warmup',
      'chaos',
      'cooldown',
      'checks',
      'done',
    ]);
    expect(types.filter((t) => t === 'snapshot').length).toBeGreaterThanOrEqual(2);
    expect(types).toContain('recovery');
    expect(types).not.toContain('fault.reverted'); // the timed fault ended by itself before the run did
  });

  it('unmet expectations fail verification; the gate fails under min score', async () => {
    const service = await setup();
    const scenario = loadScenario(`name: bad
actions:
  - { action: { type: resume_agent, target_id: agent-2 }, expect_success: true }
`);
    const report = await runScenarioReport(service, scenario, FAST);
    expect(report).toMatchObject({ status: 'failed', verified: false, passed: 0, failed: 1 });
    expect(report.results[0]!.result.error).toMatch(/agent-2/);
    const gated = await runScenarioReport(
      service,
      loadScenario(`name: g\nconfig: { cooldown: 30ms }\nactions:\n  - action: { type: kill_leader }\n`),
      {
        ...FAST,
        minScore: 100,
      },
    );
    expect(gated).toMatchObject({ status: 'failed', verified: true, gate: { min_score: 100, passed: false } });
  });

  it('enforces depends_on: dependents of a failed action are skipped', async () => {
    const service = await setup();
    const scenario = loadScenario(`name: deps
config: { parallel_actions: true }
actions:
  - { label: later, action: { type: kill_agent, target_id: agent-3 }, depends_on: [first] }
  - { label: first, action: { type: resume_agent, target_id: agent-1 } }
`);
    const report = await runScenarioReport(service, scenario, FAST);
    expect(report.results.map((r) => [r.label, r.result.error])).toEqual([
      ['later', 'skipped: depends on "first", which failed'],
      ['first', expect.stringContaining('not paused')],
    ]);
    // nothing was applied: the run proved nothing, and says so
    expect(report.status).toBe('inconclusive');
    expect(report.inconclusive_why).toMatch(/none of its 2 fault\(s\) was applied/);
    expect(target!.agent('agent-3').status).toBe('running'); // never touched
  });

  it('enforces max_concurrent in parallel mode and order in sequential mode', async () => {
    const text = (parallel: boolean) => `name: conc
config: { parallel_actions: ${parallel}, max_concurrent: 2 }
actions:
${['agent-1', 'agent-2', 'agent-3', 'orchestrator-2'].map((a) => `  - { delay: 100ms, action: { type: pause_agent, target_id: ${a} } }`).join('\n')}
`;
    const par = await runScenarioReport(await setup(), loadScenario(text(true)), FAST);
    const at = par.results.map((r) => r.at_ms).sort((a, b) => a - b);
    expect(at[1]! - at[0]!).toBeLessThan(60); // two at once…
    expect(at[2]! - at[1]!).toBeGreaterThanOrEqual(95); // …then the next two
    await target!.stop();
    const seq = await runScenarioReport(await setup(), loadScenario(text(false)), FAST);
    const seqAt = seq.results.map((r) => r.at_ms);
    for (let i = 1; i < 4; i++) expect(seqAt[i]! - seqAt[i - 1]!).toBeGreaterThanOrEqual(95);
  });

  it('stop_on_error skips the rest after an unexpected failure', async () => {
    const service = await setup();
    const scenario = loadScenario(`name: stop
config: { stop_on_error: true }
actions:
  - { action: { type: resume_agent, target_id: agent-1 } }
  - { action: { type: kill_agent, target_id: agent-2 } }
`);
    const report = await runScenarioReport(service, scenario, FAST);
    expect(report.results[1]!.result.error).toMatch(/stop_on_error/);
    expect(target!.agent('agent-2').status).toBe('running');
  });

  it('an abort mid-run returns an interrupted report with faults reverted', async () => {
    const service = await setup();
    const scenario = loadScenario(`name: abort
config: { warmup: 0, cooldown: 5s }
actions:
  - { action: { type: network_partition, target_id: agent-2, metadata: { duration: 1m } } }
  - { delay: 5s, action: { type: kill_agent, target_id: agent-3 } }
`);
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 80);
    const started = Date.now();
    const report = await runScenarioReport(service, scenario, { ...FAST, signal: ac.signal });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(report.status).toBe('interrupted');
    expect(report.error).toMatch(/interrupted/);
    expect(report.results).toHaveLength(1);
    expect(target!.agent('agent-2').partitioned).toBe(false);
    expect(target!.agent('agent-3').status).toBe('running');
  });

  it('the scenario timeout ends the run with status error', async () => {
    const service = await setup();
    const scenario = loadScenario(`name: slow
config: { timeout: 60ms }
actions:
  - { delay: 10s, action: { type: kill_agent, target_id: agent-3 } }
`);
    const report = await runScenarioReport(service, scenario, FAST);
    expect(report).toMatchObject({ status: 'error', error: 'timed out after 60ms', results: [] });
  });

  it('the same seed picks the same random targets', async () => {
    const text = `name: rnd
actions:
${Array.from({ length: 4 }, () => '  - { action: { type: slow_agent, target_id: random, metadata: { duration: 1s, delay: 1ms } } }').join('\n')}
`;
    const pick = async (seed: number) => {
      const report = await runScenarioReport(await setup(), loadScenario(text), { ...FAST, seed });
      await target!.stop();
      return report.results.map((r) => r.result.action.target_id);
    };
    const a = await pick(3);
    expect(await pick(3)).toEqual(a);
    expect(a.every((t) => ['agent-1', 'agent-2', 'agent-3'].includes(t))).toBe(true);
  });

  it('timeScale shrinks every scenario timing', async () => {
    const service = await setup();
    const scenario = loadScenario(`name: scaled
config: { warmup: 1s, cooldown: 1s }
actions:
  - { delay: 1s, action: { type: tool_timeout, target_id: agent-2, metadata: { duration: 10s } } }
`);
    const report = await runScenarioReport(service, scenario, { ...FAST, timeScale: 0.02 });
    expect(report.duration_ms).toBeLessThan(1000);
    expect(report.results[0]!.result.metadata).toMatchObject({ duration_ms: 200 });
  });

  it('runScenario (deprecated) returns just the results', async () => {
    const service = await setup();
    const results = await runScenario(
      service,
      loadScenario(`name: r\nactions:\n  - action: { type: kill_leader }\n`),
      FAST,
    );
    expect(results).toEqual([expect.objectContaining({ success: true })]);
  });
});

describe('runScenarioOnTarget', () => {
  it('starts, runs, reverts and stops the target', async () => {
    target = createFakeTarget();
    const report = await runScenarioOnTarget(
      target,
      loadScenario(
        `name: t\nconfig: { cooldown: 50ms }\nactions:\n  - action: { type: pause_agent, target_id: agent-2 }\n`,
      ),
      FAST,
    );
    expect(report.status).toBe('passed');
    expect(report.strategy).toEqual({ recovery: true });
    expect(target.started).toBe(false);
    expect(target.agent('agent-2').status).toBe('running');
  });

  it('recovery off scores clearly lower than recovery on', async () => {
    const text = `name: compare
config: { warmup: 30ms, cooldown: 150ms }
actions:
  - { action: { type: kill_leader } }
  - { delay: 20ms, action: { type: memory_corrupt, target_id: agent-2 } }
  - { delay: 20ms, action: { type: remove_edge, source_id: plan, target_id: tool } }
`;
    const on = await runScenarioOnTarget(createFakeTarget(), loadScenario(text), FAST);
    const off = await runScenarioOnTarget(createFakeTarget({ recovery: false }), loadScenario(text), FAST);
    expect(on.score.score).toBeGreaterThan(off.score.score! + 30);
    expect(off.score.measurements.recovery.recovered).toBe(0);
  });
});

describe('abort while waiting for recovery', () => {
  it('stops waiting, reverts and reports interrupted; the cut recovery is reported, not counted as failed', async () => {
    const service = await setup(false);
    const ac = new AbortController();
    const scenario = loadScenario(
      `name: wait\nconfig: { warmup: 0 }\nactions:\n  - action: { type: kill_agent, target_id: agent-2 }\n`,
    );
    setTimeout(() => ac.abort(), 100);
    const started = Date.now();
    const events: RunEvent[] = [];
    const report = await runScenarioReport(service, scenario, {
      pollIntervalMs: 5,
      recoveryDeadlineMs: 10_000,
      signal: ac.signal,
      onEvent: (e) => events.push(e),
    });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(report.status).toBe('interrupted');
    expect(report.score.measurements.recovery).toMatchObject({ disruptive_faults: 0, recovered: 0, interrupted: 1 });
    expect(report.score.measurements.recovery.faults).toEqual([
      expect.objectContaining({ type: 'kill_agent', recovered: false, interrupted: true }),
    ]);
    expect(report.score.recovery).toBe(100);
    expect(events.filter((e) => e.type === 'recovery')).toEqual([
      expect.objectContaining({ recovery: expect.objectContaining({ interrupted: true }) }),
    ]);
    // the last event carries the final score, so a live view's last frame shows what the report shows
    const finished = events.at(-1)!;
    expect(finished).toMatchObject({
      type: 'run.finished',
      status: 'interrupted',
      score: {
        score: report.score.score,
        availability: report.score.availability,
        recovery: report.score.recovery,
        consistency: report.score.consistency,
      },
    });
  });
});
