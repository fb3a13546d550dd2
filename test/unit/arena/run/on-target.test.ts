import { describe, expect, it } from 'vitest';
import { RuntimeError } from '../../../../src/shared/errors.js';
import { runSurvivalOnTarget } from '../../../../src/arena/survival/on-target.js';
import { runScenarioOnTarget } from '../../../../src/arena/scenario/target.js';
import { loadScenario } from '../../../../src/arena/scenario/index.js';
import { createFakeTarget } from '../../../helpers/fake-target.js';

const FAST = { pollIntervalMs: 5, recoveryDeadlineMs: 300 };
const SURVIVAL = { duration: '100ms', interval: '50ms', cooldown: '20ms', seed: 5, actions: ['pause_agent'], ...FAST };

describe('a run on a whole target (scenario and survival alike)', () => {
  it('a stop that fails after a survival run is said in its report, not lost with it', async () => {
    const target = createFakeTarget();
    const stop = target.stop.bind(target);
    target.stop = async () => {
      await stop();
      throw new Error('the supervisor would not exit');
    };
    const report = await runSurvivalOnTarget(target, SURVIVAL);
    expect(report.status).toBe('error');
    expect(report.error).toBe('the supervisor would not exit');
    expect(report.actions_run).toBe(2);
    expect(target.agent('agent-2').status).toBe('running');
  });

  it('a target that fails to start is stopped, and the failure names it', async () => {
    for (const run of [
      (t: ReturnType<typeof createFakeTarget>) => runSurvivalOnTarget(t, SURVIVAL),
      (t: ReturnType<typeof createFakeTarget>) =>
        runScenarioOnTarget(t, loadScenario('name: s\nactions:\n  - action: { type: kill_leader }\n'), FAST),
    ]) {
      const target = createFakeTarget();
      let stops = 0;
      target.start = async () => {
        throw new Error('port 7001 in use');
      };
      target.stop = async () => {
        stops += 1;
      };
      const failure = run(target);
      await expect(failure).rejects.toThrow(RuntimeError);
      await expect(failure).rejects.toThrow('the fake target did not start: port 7001 in use');
      expect(stops).toBe(1);
    }
  });

  it('the strategy in force is what the started target describes unless the caller names one', async () => {
    expect((await runSurvivalOnTarget(createFakeTarget(), SURVIVAL)).strategy).toEqual({ recovery: true });
    expect(
      (await runSurvivalOnTarget(createFakeTarget(), { ...SURVIVAL, strategy: { named: 'mine' } })).strategy,
    ).toEqual({ named: 'mine' });
  });

  it("a target's proxies are in its report, read before it stops; a failure reading them loses nothing else", async () => {
    const target = createFakeTarget();
    let isStopped = false;
    const stop = target.stop.bind(target);
    target.stop = async () => {
      isStopped = true;
      await stop();
    };
    const proxy = { kind: 'llm' as const, agents: ['agent-1'], listen: 'http://127.0.0.1:7300', upstream: 'http://u' };
    target.proxies = () => [{ ...proxy, stats: { stopped_when_read: isStopped } }];
    const report = await runSurvivalOnTarget(target, SURVIVAL);
    expect(report.proxies).toEqual([{ ...proxy, stats: { stopped_when_read: false } }]);

    const broken = createFakeTarget();
    broken.proxies = () => {
      throw new Error('stats unavailable');
    };
    const scenario = await runScenarioOnTarget(
      broken,
      loadScenario('name: s\nactions:\n  - action: { type: kill_leader }\n'),
      FAST,
    );
    expect(scenario.proxies).toBeUndefined();
    expect(scenario.error).toBeUndefined();
    // a target with no proxies has no proxies field
    expect((await runSurvivalOnTarget(createFakeTarget(), SURVIVAL)).proxies).toBeUndefined();
  });
});
