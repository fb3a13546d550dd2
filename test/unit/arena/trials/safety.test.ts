import { describe, expect, it } from 'vitest';
import { dryRunOnTarget } from '../../../../src/arena/dry-run/on-target.js';
import { parseStopWhen } from '../../../../src/arena/safety/stop-when.js';
import { checkScenarioText } from '../../../../src/arena/scenario/load.js';
import { runTrialsOnTarget } from '../../../../src/arena/trials/run.js';
import { StoppedError } from '../../../../src/shared/errors.js';
import { standInTarget } from './stand-in.js';

const SCENARIO = checkScenarioText(
  [
    'name: flaky-llm',
    'actions:',
    '  - action: { type: llm_failure, target_id: agent, metadata: { error_type: rate_limit, duration: 1s } }',
  ].join('\n'),
).scenario!;

/** a stand-in whose tries take `ms` each, so a stop condition's checks get to run while a block does */
function slowStandIn(ms: number) {
  const stand = standInTarget([{ id: 'a' }, { id: 'b' }], { passes: () => true });
  const trials = stand.target.trials!;
  const run = trials.run.bind(trials);
  let tries = 0;
  (trials as { run: typeof run }).run = async (id, mark) => {
    tries++;
    await new Promise((r) => setTimeout(r, ms));
    return run(id, mark);
  };
  return { ...stand, tries: () => tries };
}

describe('arena trials --stop-when', () => {
  it('a trip while a faulted block runs ends the trials: faults reverted, status failed, stopped_by reported', async () => {
    const { target, applied, tries } = slowStandIn(1);
    // the probe fails while the llm_failure is applied, and only then
    let faulted = false;
    const inject = target.runtime.injectLlmFailure!.bind(target.runtime);
    (target.runtime as { injectLlmFailure: typeof inject }).injectLlmFailure = async (...args) => {
      faulted = true;
      return inject(...args);
    };
    const revertAll = target.runtime.revertAll.bind(target.runtime);
    (target.runtime as { revertAll: typeof revertAll }).revertAll = async () => {
      faulted = false;
      return revertAll();
    };
    // a faulted try lasts until the trials are stopped (10 s at most), so the trip lands in the first faulted block
    const trials = target.trials!;
    const run = trials.run.bind(trials);
    (trials as { run: typeof run }).run = async (id, mark) => {
      if (faulted)
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, 10_000);
          mark.signal?.addEventListener('abort', () => {
            clearTimeout(timer);
            resolve();
          });
        });
      return run(id, mark);
    };
    const stopWhen = parseStopWhen({ probe_failures: { url: 'http://probe.test/', count: 1, every: '20ms' } }, 'test');
    const report = await runTrialsOnTarget(target, {
      n: 8,
      ks: [1],
      seed: 4,
      scenario: SCENARIO,
      stopWhen,
      stopSources: { probeUrl: async () => (faulted ? 'the probe failed' : undefined) },
    });
    expect(report.status).toBe('failed');
    expect(report.stopped_by).toMatchObject({ kind: 'probe_failures' });
    expect(report.error).toMatch(/stopped early by probe_failures/);
    // it ended in the first faulted block: one fault applied, far fewer than the 32 planned tries
    expect(applied).toHaveLength(1);
    expect(tries()).toBeLessThan(32);
    expect(faulted).toBe(false);
  });

  it('refuses a condition the target cannot evaluate before anything runs', async () => {
    const { target, applied } = standInTarget([{ id: 'a' }], { passes: () => true }, { withLedger: false });
    const stopWhen = parseStopWhen({ spend_above: { tokens: 10 } }, 'test');
    await expect(
      runTrialsOnTarget(target, { n: 2, ks: [1], seed: 1, scenario: SCENARIO, stopWhen }),
    ).rejects.toMatchObject({ exitCode: 2 });
    expect(applied).toEqual([]);
  });

  it('an emergency stop (StoppedError as the abort reason) reports status stopped, not interrupted', async () => {
    const controller = new AbortController();
    const { target } = slowStandIn(5);
    const report = await runTrialsOnTarget(target, {
      n: 4,
      ks: [1],
      seed: 2,
      scenario: SCENARIO,
      signal: controller.signal,
      onTrial: (_t, done) => {
        if (done === 2) controller.abort(new StoppedError('arena stop from pid 1'));
      },
    });
    expect(report.status).toBe('stopped');
    expect(report.stopped_by).toBeUndefined();
  });
});

describe('arena trials --dry-run', () => {
  it('plans the blocks a real run with the same seed takes, with each faulted block’s faults, and runs nothing', async () => {
    const { target, applied } = standInTarget([{ id: 'a' }, { id: 'b' }], { passes: () => true });
    let ran = 0;
    const trials = target.trials!;
    const run = trials.run.bind(trials);
    (trials as { run: typeof run }).run = async (id, mark) => {
      ran++;
      return run(id, mark);
    };
    const plan = await dryRunOnTarget(target, { kind: 'trials', options: { n: 3, seed: 11, scenario: SCENARIO } });
    expect(plan.kind).toBe('trials');
    expect(plan.problems).toEqual([]);
    expect(plan.injected).toBe(0);
    expect(applied).toEqual([]);
    expect(ran).toBe(0);
    expect(plan.trials!.arms).toEqual(['clean', 'faulted']);
    const faulted = plan.trials!.blocks.filter((b) => b.arm === 'faulted');
    expect(faulted).toHaveLength(3);
    for (const b of faulted) expect(b.faults!.map((f) => `${f.type} ${f.target}`)).toEqual(['llm_failure agent']);
    expect(plan.timeline).toHaveLength(3);

    // the real run takes the tries in exactly the planned order
    const order: string[] = [];
    await runTrialsOnTarget(target, {
      n: 3,
      ks: [1],
      seed: 11,
      scenario: SCENARIO,
      onTrial: (t) => order.push(`${t.round}.${t.arm}.${t.task}`),
    });
    expect(order).toEqual(plan.trials!.blocks.flatMap((b) => b.tasks.map((t) => `${b.round}.${b.arm}.${t}`)));
  });

  it('says what cannot be resolved: a target with no tasks, an agent the target does not have', async () => {
    const { target } = standInTarget([], { passes: () => true });
    const bad = checkScenarioText(
      ['name: ghost', 'actions:', '  - action: { type: llm_failure, target_id: ghost }'].join('\n'),
    ).scenario!;
    const plan = await dryRunOnTarget(target, { kind: 'trials', options: { n: 2, seed: 1, scenario: bad } });
    expect(plan.problems.join('\n')).toMatch(/lists no tasks/);
    expect(plan.problems.join('\n')).toMatch(/ghost/);
  });
});
