/**
 * Stop conditions and max_affected through a whole scenario run on the fake target (real timers,
 * short timings): the run ends early with stopped_by, every fault reverted; a fault past the limit
 * is skipped and reported.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { loadScenario, runScenarioOnTarget, runScenarioReport } from '../../../../src/arena/scenario/index.js';
import { ArenaService } from '../../../../src/arena/service.js';
import { Injector } from '../../../../src/arena/injector.js';
import type { RunEvent } from '../../../../src/arena/report.js';
import { isArenaError } from '../../../../src/shared/errors.js';
import { createFakeTarget, type FakeTarget } from '../../../helpers/fake-target.js';

let target: FakeTarget | undefined;
afterEach(async () => target?.stop());

async function setup(recovery = true) {
  target = createFakeTarget({ recovery });
  await target.start();
  return new ArenaService({ injector: new Injector(target.runtime, target.dag), observer: target.observer });
}

const FAST = { pollIntervalMs: 5, recoveryDeadlineMs: 300 };

describe('stop_when in a scenario run', () => {
  it('a probe that keeps failing ends the run early: faults reverted, status failed, stopped_by, event says why', async () => {
    const service = await setup(false);
    const scenario = loadScenario(`name: stopped
config:
  warmup: 20ms
  cooldown: 10s
  stop_when: { probe_failures: { agent: agent-2, count: 2 } }
actions:
  - { label: pause, action: { type: pause_agent, target_id: agent-2, metadata: { duration: 1m } } }
  - { label: later, delay: 20s, action: { type: kill_agent, target_id: agent-3 } }
`);
    const events: RunEvent[] = [];
    const started = Date.now();
    const report = await runScenarioReport(service, scenario, { ...FAST, onEvent: (e) => events.push(e) });
    // a safety net, not a timing claim: the run was planned for 30 s and more
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(report.status).toBe('failed');
    expect(report.verified).toBe(false);
    expect(report.stopped_by).toMatchObject({
      kind: 'probe_failures',
      condition: 'probe_failures agent-2 ×2',
      value: 2,
    });
    expect(report.stopped_by!.reason).toMatch(/agent-2 failed 2 probe\(s\) in a row/);
    // the pause was reverted by the run; the later kill never ran
    expect(report.reverted_faults!.map((f) => f.target)).toEqual(['agent-2']);
    expect(target!.agent('agent-2').status).toBe('running');
    expect(report.results.map((r) => r.label)).toEqual(['pause']);
    const finished = events.at(-1)!;
    expect(finished).toMatchObject({ type: 'run.finished', status: 'failed', stopped_by: report.stopped_by });
  });

  it('checks start with the first fault: a condition true during warmup does not stop it before', async () => {
    const service = await setup();
    target!.agent('agent-3').status = 'stopped'; // unhealthy from the start, never faulted
    const scenario = loadScenario(`name: armed
config: { warmup: 300ms, cooldown: 50ms, stop_when: { probe_failures: { agent: agent-3, count: 1 } } }
actions:
  - { label: slow, delay: 50ms, action: { type: slow_agent, target_id: agent-2, metadata: { duration: 50ms } } }
`);
    const report = await runScenarioReport(service, scenario, FAST);
    expect(report.results.map((r) => r.label)).toEqual(['slow']);
    expect(report.stopped_by!.at_ms).toBeGreaterThanOrEqual(report.results[0]!.at_ms);
  });

  it('a condition the target has no source for is refused before anything is injected', async () => {
    await setup();
    const scenario = loadScenario(`name: spend
config: { stop_when: { spend_above: { tokens: 1000 } } }
actions:
  - { label: kill, action: { type: kill_agent, target_id: agent-2 } }
`);
    const err = await runScenarioOnTarget(target!, scenario, FAST).catch((e: unknown) => e);
    expect(isArenaError(err, 'stop_condition_unusable')).toBe(true);
    expect((err as Error).message).toMatch(/spend_above 1000 tokens: this target has no LLM proxy/);
    expect((err as { exitCode: number }).exitCode).toBe(2);
    expect(target!.agent('agent-2').status).toBe('running');
  });

  it('probe_failures naming an agent the target does not have is refused', async () => {
    const service = await setup();
    const scenario = loadScenario(`name: ghost
config: { stop_when: { probe_failures: { agent: nobody, count: 1 } } }
actions:
  - { label: kill, action: { type: kill_agent, target_id: agent-2 } }
`);
    await expect(runScenarioReport(service, scenario, FAST)).rejects.toThrow(/the target has no agent "nobody"/);
  });
});

describe('max_affected', () => {
  it('1 with two overlapping pauses: the second is skipped, naming max_affected; never two paused at once', async () => {
    const service = await setup();
    const scenario = loadScenario(`name: blast
config: { warmup: 10ms, cooldown: 20ms, parallel_actions: true, max_affected: 1 }
actions:
  - { label: p1, action: { type: pause_agent, target_id: agent-2, metadata: { duration: 200ms } } }
  - { label: p2, delay: 50ms, action: { type: pause_agent, target_id: agent-3, metadata: { duration: 200ms } } }
  - { label: again, delay: 60ms, action: { type: slow_agent, target_id: agent-2, metadata: { duration: 50ms } } }
  - { label: after, delay: 400ms, action: { type: pause_agent, target_id: agent-3, metadata: { duration: 20ms } } }
`);
    let most = 0;
    const events: RunEvent[] = [];
    const report = await runScenarioReport(service, scenario, {
      ...FAST,
      onEvent: (e) => {
        events.push(e);
        const paused = ['agent-2', 'agent-3'].filter((id) => target!.agent(id).status === 'paused').length;
        most = Math.max(most, paused);
      },
    });
    const byLabel = Object.fromEntries(report.results.map((r) => [r.label, r.result]));
    expect(byLabel.p1!.success).toBe(true);
    expect(byLabel.p2).toMatchObject({ success: false, skipped: true });
    expect(byLabel.p2!.error).toMatch(/^skipped: max_affected 1 \(1 agent\(s\)\) reached: agent-2 already faulted/);
    // another fault on the agent already faulted is within the limit; so is one once the first ended
    expect(byLabel.again!.success).toBe(true);
    expect(byLabel.after!.success).toBe(true);
    expect(most).toBe(1);
    // a skipped fault injected nothing: it is not counted as a failed injection
    expect(report.score.injections).toMatchObject({ total: 3, succeeded: 3, failed: 0 });
  });

  it('"50%" of five agents is two', async () => {
    const service = await setup();
    const scenario = loadScenario(`name: pct
config: { warmup: 10ms, cooldown: 10ms, max_affected: "50%" }
actions:
  - { label: a, action: { type: pause_agent, target_id: agent-1, metadata: { duration: 1s } } }
  - { label: b, action: { type: pause_agent, target_id: agent-2, metadata: { duration: 1s } } }
  - { label: c, action: { type: pause_agent, target_id: agent-3, metadata: { duration: 1s } } }
  - { label: d, action: { type: resume_agent, target_id: agent-1 } }
  - { label: e, action: { type: pause_agent, target_id: agent-3, metadata: { duration: 10ms } } }
`);
    const report = await runScenarioReport(service, scenario, FAST);
    expect(report.results.map((r) => [r.label, r.result.success, r.result.skipped ?? false])).toEqual([
      ['a', true, false],
      ['b', true, false],
      ['c', false, true],
      ['d', true, false],
      ['e', true, false],
    ]);
  });
});
