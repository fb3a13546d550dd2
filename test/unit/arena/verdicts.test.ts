/**
 * Honest verdicts (DESIGN §4, §5): an unknown agent, node or edge is refused before anything is
 * injected; nothing measured is `inconclusive`, never a grade; every workload request sent is
 * counted, those still in flight when the window closes included; a failed invariant fails the run.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { loadScenario, runScenarioOnTarget, runScenarioReport } from '../../../src/arena/scenario/index.js';
import { ArenaService } from '../../../src/arena/service.js';
import { Injector } from '../../../src/arena/injector.js';
import type { Target, TargetObserver } from '../../../src/arena/providers.js';
import { createEmbeddedTarget } from '../../../src/targets/embedded/index.js';
import { unknownTargetProblems } from '../../../src/arena/target-names.js';
import { createWorkloadTally } from '../../../src/arena/workload-window.js';
import { createFakeTarget, type FakeTarget } from '../../helpers/fake-target.js';

let fake: FakeTarget | undefined;
afterEach(async () => {
  await fake?.stop();
  fake = undefined;
});

const FAST = { pollIntervalMs: 5, recoveryDeadlineMs: 300 };

function serviceOn(target: Pick<Target, 'runtime' | 'dag'>, observer: TargetObserver) {
  return new ArenaService({ injector: new Injector(target.runtime, target.dag), observer });
}

describe('unknown targets are refused before anything is injected', () => {
  it('names each unknown agent, node and edge by its path', () => {
    const names = {
      agents: ['agent-1', 'agent-2'],
      dag: { nodes: ['fetch', 'plan'], edges: [{ from: 'fetch', to: 'plan' }] },
    };
    const problems = unknownTargetProblems(
      [
        { path: 'actions[0].action', action: { type: 'kill_agent', target_id: 'agent-9' } },
        { path: 'actions[1].action', action: { type: 'kill_agent', target_id: 'agent-2' } },
        { path: 'actions[2].action', action: { type: 'kill_leader' } },
        { path: 'actions[3].action', action: { type: 'pause_agent', target_id: 'random' } },
        { path: 'actions[4].action', action: { type: 'remove_node', target_id: 'summarise' } },
        { path: 'actions[5].action', action: { type: 'remove_edge', source_id: 'plan', target_id: 'fetch' } },
        { path: 'actions[6].action', action: { type: 'remove_edge', source_id: 'nope', target_id: 'plan' } },
        { path: 'actions[7].action', action: { type: 'remove_edge', source_id: 'fetch', target_id: 'plan' } },
      ],
      names,
    );
    expect(problems.map((p) => p.path)).toEqual([
      'actions[0].action.target_id',
      'actions[4].action.target_id',
      'actions[5].action.target_id',
      'actions[6].action.source_id',
    ]);
    expect(problems[0]!.message).toMatch(/unknown agent "agent-9" \(the target's agents: agent-1, agent-2\)/);
  });

  it('a scenario aimed at agent-9 on the embedded target throws a usage error and injects nothing', async () => {
    const target = createEmbeddedTarget({ seed: 3 });
    const scenario = loadScenario(`name: ghost
config: { warmup: 0, cooldown: 0 }
actions:
  - { action: { type: kill_agent, target_id: agent-2 } }
  - { action: { type: kill_agent, target_id: agent-9 } }
`);
    const err = await runScenarioOnTarget(target, scenario, FAST).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'unknown_target', exitCode: 2, status: 400 });
    expect((err as Error).message).toMatch(/actions\[1\]\.action\.target_id unknown agent "agent-9"/);
    // agent-2 was not killed either: the check comes before the first fault
    expect((await target.describe()).agents.every((a) => a.restarts === 0)).toBe(true);
  });
});

describe('nothing measured is inconclusive', () => {
  it('no workload request: availability null with why, no score, status inconclusive, gate not judged', async () => {
    fake = createFakeTarget({ recovery: true });
    await fake.start();
    const silent: TargetObserver = {
      ...fake.observer,
      workload: async () => ({ requests: 0, succeeded: 0, failed: 0 }),
    };
    const report = await runScenarioReport(
      serviceOn(fake, silent),
      loadScenario(
        'name: one-kill\nconfig: { warmup: 0, cooldown: 20ms }\nactions:\n  - action: { type: kill_leader }\n',
      ),
      { ...FAST, minScore: 50 },
    );
    expect(report.status).toBe('inconclusive');
    expect(report.score).toMatchObject({ score: null, grade: null, availability: null });
    expect(report.score.availability_why).toMatch(/no workload request/);
    expect(report.inconclusive_why).toMatch(/no workload request/);
    expect(report.gate).toBeUndefined();
  });

  it('a scenario with no window stated gets the default 1s warmup and 3s cooldown', () => {
    const s = loadScenario('name: minimal\nactions:\n  - action: { type: kill_leader }\n');
    expect(s.config).toMatchObject({ warmup_ms: 1000, cooldown_ms: 3000 });
  });
});

describe('every workload request sent is counted', () => {
  it('a window counts requests by when they were sent and waits for those in flight', async () => {
    const tally = createWorkloadTally();
    const before = tally.started(); // sent before the window: not its request
    const window = tally.open();
    before(true);
    const a = tally.started();
    const b = tally.started();
    const c = tally.started();
    a(true);
    expect(window.counts()).toEqual({ sent: 3, succeeded: 1, failed: 0, pending: 2 });
    const closing = window.close();
    const after = tally.started(); // sent after the window closed: not counted
    b(false);
    c(true);
    after(true);
    c(false); // an end is counted once
    expect(await closing).toEqual({ sent: 3, succeeded: 2, failed: 1, pending: 0 });
  });

  it('an abort stops the wait; the requests that never ended stay pending', async () => {
    const tally = createWorkloadTally();
    const window = tally.open();
    tally.started();
    const ac = new AbortController();
    const closing = window.close(ac.signal);
    ac.abort();
    expect(await closing).toEqual({ sent: 1, succeeded: 0, failed: 0, pending: 1 });
  });

  it('a pause of every worker held through the cooldown does not score 100: the hung runs count as failed', async () => {
    const target = createEmbeddedTarget({ seed: 5, workloadRate: 40 });
    const scenario = loadScenario(`name: frozen
config: { warmup: 200ms, cooldown: 400ms }
actions:
  - { action: { type: pause_agent, target_id: agent-1 } }
  - { action: { type: pause_agent, target_id: agent-2 } }
  - { action: { type: pause_agent, target_id: agent-3 } }
`);
    const report = await runScenarioOnTarget(target, scenario, FAST);
    const requests = report.score.measurements.requests;
    // runs sent while every worker was paused hang until their own timeout: failed, not left out
    expect(requests.in_flight_at_end?.count).toBeGreaterThan(0);
    expect(requests.in_flight_at_end!.failed).toBeGreaterThan(0);
    expect(requests.total).toBe(requests.succeeded + requests.failed);
    expect(report.score.availability).toBeLessThan(75);
    expect(report.score.score).toBeLessThan(100);
  });
});

describe('a failed invariant fails the run', () => {
  const lost = (gate?: boolean): TargetObserver => ({
    ...fake!.observer,
    checkInvariants: async () => [
      { name: 'nothing-lost', passed: false, detail: '3 jobs lost', ...(gate === undefined ? {} : { gate }) },
    ],
  });
  const scenario = () =>
    loadScenario('name: fleet\nconfig: { warmup: 0, cooldown: 20ms }\nactions:\n  - action: { type: kill_leader }\n');

  it('status failed whatever the score', async () => {
    fake = createFakeTarget({ recovery: true });
    await fake.start();
    const report = await runScenarioReport(serviceOn(fake, lost()), scenario(), FAST);
    expect(report.status).toBe('failed');
    expect(report.score.measurements.consistency.failed_checks).toEqual([
      { name: 'nothing-lost', detail: '3 jobs lost' },
    ]);
  });

  it('gate: false counts it in the score only', async () => {
    fake = createFakeTarget({ recovery: true });
    await fake.start();
    const report = await runScenarioReport(serviceOn(fake, lost(false)), scenario(), FAST);
    expect(report.status).toBe('passed');
    expect(report.score.consistency).toBe(0);
    expect(report.score.measurements.consistency.failed_checks).toEqual([
      { name: 'nothing-lost', detail: '3 jobs lost', gate: false },
    ]);
  });
});

describe('timed faults hold the timeline', () => {
  it('the cooldown starts when the last timed fault has ended: a 600ms pause lasts 600ms', async () => {
    fake = createFakeTarget({ recovery: true });
    await fake.start();
    const service = serviceOn(fake, fake.observer);
    const phases: Array<[string, number]> = [];
    const report = await runScenarioReport(
      service,
      loadScenario(`name: held
config: { warmup: 0, cooldown: 50ms }
actions:
  - { action: { type: pause_agent, target_id: agent-2, metadata: { duration: 600ms } } }
`),
      { ...FAST, onEvent: (e) => e.type === 'phase' && phases.push([e.phase, e.at_ms]) },
    );
    expect(report.status).toBe('passed');
    const cooldown = phases.find(([p]) => p === 'cooldown')!;
    expect(cooldown[1]).toBeGreaterThanOrEqual(590);
    // it ended by itself: nothing was left to revert, nothing cut
    expect(report.reverted_faults).toEqual([]);
    expect(report.cut_faults).toBeUndefined();
  });

  it('a resume_agent ends the hold early', async () => {
    fake = createFakeTarget({ recovery: true });
    await fake.start();
    const started = Date.now();
    const report = await runScenarioReport(
      serviceOn(fake, fake.observer),
      loadScenario(`name: resumed
config: { warmup: 0, cooldown: 20ms }
actions:
  - { label: p, action: { type: pause_agent, target_id: agent-2, metadata: { duration: 1m } } }
  - { delay: 50ms, action: { type: resume_agent, target_id: agent-2 }, depends_on: [p] }
`),
      FAST,
    );
    expect(report.status).toBe('passed');
    expect(Date.now() - started).toBeLessThan(30_000);
  });

  it('config.timeout still bounds the run; the fault it cut is reported with planned and actual duration', async () => {
    fake = createFakeTarget({ recovery: true });
    await fake.start();
    const report = await runScenarioReport(
      serviceOn(fake, fake.observer),
      loadScenario(`name: cut
config: { warmup: 0, cooldown: 20ms, timeout: 300ms }
actions:
  - { action: { type: pause_agent, target_id: agent-2, metadata: { duration: 1m } } }
`),
      FAST,
    );
    expect(report.status).toBe('error');
    expect(report.error).toMatch(/timed out after 300ms/);
    expect(report.cut_faults).toHaveLength(1);
    expect(report.cut_faults![0]).toMatchObject({
      kind: expect.stringMatching(/pause/),
      target: 'agent-2',
      planned_ms: 60_000,
    });
    expect(report.cut_faults![0]!.actual_ms).toBeGreaterThanOrEqual(250);
    expect(report.cut_faults![0]!.actual_ms).toBeLessThan(60_000);
  });
});
