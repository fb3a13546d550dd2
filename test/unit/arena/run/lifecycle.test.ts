import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../src/shared/clock.js';
import { createAction } from '../../../../src/arena/actions.js';
import { Injector } from '../../../../src/arena/injector.js';
import { ArenaService } from '../../../../src/arena/service.js';
import type { RunEvent } from '../../../../src/arena/report.js';
import { runLifecycle, type RunContext, type RunLifecycleOptions } from '../../../../src/arena/run/lifecycle.js';
import { createFakeTarget, type FakeTarget } from '../../../helpers/fake-target.js';
import { StoppedError } from '../../../../src/shared/errors.js';

let target: FakeTarget | undefined;
afterEach(async () => target?.stop());

async function setup() {
  const clock = new ManualClock();
  target = createFakeTarget({ clock });
  await target.start();
  const service = new ArenaService({
    injector: new Injector(target.runtime, target.dag),
    observer: target.observer,
    clock,
  });
  return { clock, service, target };
}

/** advances the manual clock until the promise settles */
async function drive<T>(clock: ManualClock, promise: Promise<T>): Promise<T> {
  let done = false;
  promise.then(
    () => (done = true),
    () => (done = true),
  );
  for (let t = 0; t < 60_000 && !done; t += 20) await clock.advance(20);
  return promise;
}

type Setup = Awaited<ReturnType<typeof setup>>;

function options(s: Setup, events: RunEvent[], extra: Partial<RunLifecycleOptions> = {}): RunLifecycleOptions {
  return {
    kind: 'scenario',
    name: 'lifecycle',
    seed: 1,
    service: s.service,
    observer: s.target.observer,
    clock: s.clock,
    onEvent: (e) => events.push(e),
    warmupMs: 0,
    cooldownMs: 100,
    plannedMs: 200,
    pollIntervalMs: 10,
    recoveryDeadlineMs: 500,
    ...extra,
  };
}

/** pauses agent-2 for a minute: a fault only the run's revert ends */
async function pause(s: Setup, ctx: RunContext): Promise<void> {
  const result = await s.service.execute(createAction('pause_agent', 'agent-2', { metadata: { duration: '1m' } }));
  ctx.action('pause', result, ctx.rel(), true);
}

const phases = (events: RunEvent[]) => events.flatMap((e) => (e.type === 'phase' ? [e.phase] : []));

describe('runLifecycle', () => {
  it('a schedule that throws ends the run as an error, with its faults reverted and the score still measured', async () => {
    const s = await setup();
    const events: RunEvent[] = [];
    const outcome = await drive(
      s.clock,
      runLifecycle(options(s, events), async (ctx) => {
        await pause(s, ctx);
        throw new Error('schedule broke');
      }),
    );
    expect(outcome).toMatchObject({ status: 'error', error: 'schedule broke' });
    expect(outcome.reverted.map((f) => [f.kind, f.target])).toEqual([['pause', 'agent-2']]);
    expect(s.target.agent('agent-2').status).toBe('running');
    expect(outcome.score.injections.total).toBe(1);
    // no warmup asked, none emitted; the cooldown is skipped once the run failed
    expect(phases(events)).toEqual(['chaos', 'checks', 'done']);
    expect(events.filter((e) => e.type === 'fault.reverted')).toHaveLength(1);
    expect(events.at(-1)).toMatchObject({ type: 'run.finished', status: 'error' });
  });

  it('a revert that fails is said in the outcome: status error, or interrupted when the caller stopped the run', async () => {
    const s = await setup();
    s.target.runtime.revertAll = async () => {
      throw new Error('target gone');
    };
    const failed = await drive(
      s.clock,
      runLifecycle(options(s, []), (ctx) => pause(s, ctx)),
    );
    expect(failed).toMatchObject({ status: 'error', error: 'reverting faults failed: target gone' });

    const abort = new AbortController();
    const stopped = runLifecycle(options(s, [], { signal: abort.signal, cooldownMs: 10_000 }), (ctx) => pause(s, ctx));
    await s.clock.advance(50);
    abort.abort('SIGINT');
    const outcome = await drive(s.clock, stopped);
    expect(outcome.status).toBe('interrupted');
    expect(outcome.error).toBe(
      'interrupted (SIGINT) after 1 action(s): faults reverted, partial report; reverting faults failed: target gone',
    );
  });

  it('an emergency stop (a StoppedError as the abort reason) ends the run as stopped, its faults reverted', async () => {
    const s = await setup();
    const abort = new AbortController();
    const events: RunEvent[] = [];
    const run = runLifecycle(options(s, events, { signal: abort.signal, cooldownMs: 10_000 }), (ctx) => pause(s, ctx));
    await s.clock.advance(50);
    abort.abort(new StoppedError('arena stop from pid 42'));
    const outcome = await drive(s.clock, run);
    expect(outcome.status).toBe('stopped');
    expect(outcome.error).toBe('stopped (arena stop from pid 42) after 1 action(s): faults reverted, partial report');
    expect(outcome.reverted.map((f) => [f.kind, f.target])).toEqual([['pause', 'agent-2']]);
    expect(s.target.agent('agent-2').status).toBe('running');
    expect(events.at(-1)).toMatchObject({ type: 'run.finished', status: 'stopped' });
  });

  it('a listener that throws does not stop the run or leave a fault behind', async () => {
    const s = await setup();
    const outcome = await drive(
      s.clock,
      runLifecycle(
        options(s, [], {
          onEvent: () => {
            throw new Error('listener broke');
          },
          minScore: 0,
        }),
        (ctx) => pause(s, ctx),
      ),
    );
    expect(outcome).toMatchObject({ status: 'passed', gate: { min_score: 0, passed: true } });
    expect(outcome.error).toBeUndefined();
    expect(s.target.agent('agent-2').status).toBe('running');
  });

  it("the run's time starts once the steady state is sampled, so a fault planned at 0 is not late by the sampling", async () => {
    const s = await setup();
    // a target whose workload counters take 40 ms to answer (a round trip to a remote target, say)
    const observer = {
      ...s.target.observer,
      workload: async () => (await s.clock.sleep(40), s.target.observer.workload()),
    };
    let atStart: number | undefined;
    const outcome = await drive(
      s.clock,
      runLifecycle(options(s, [], { observer }), async (ctx) => {
        atStart = ctx.elapsed();
      }),
    );
    expect(outcome.status).toBe('passed');
    // before, the schedule began 40 ms into the run, and survival's first tick, planned at 0, was 40 ms late
    expect(atStart).toBe(0);
  });

  it("the caller's own verdict fails a run that the gate passed", async () => {
    const s = await setup();
    const outcome = await drive(
      s.clock,
      runLifecycle(options(s, [], { failed: () => true }), async () => undefined),
    );
    expect(outcome.status).toBe('failed');
    expect(outcome.error).toBeUndefined();
  });
});
