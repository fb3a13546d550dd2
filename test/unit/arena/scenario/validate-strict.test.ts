import { describe, expect, it } from 'vitest';
import { checkScenarioText } from '../../../../src/arena/scenario/load.js';

const one = (action: string, delay = '0') => `name: x\nactions:\n  - delay: ${delay}\n    action: ${action}\n`;
const errorsOf = (text: string) =>
  checkScenarioText(text).errors.map((e) => `${e.line}:${e.column} ${e.path}: ${e.message}`);

describe('validate accepts exactly what run accepts', () => {
  it('refuses the durations that used to overflow a timer, with the place', () => {
    expect(errorsOf(one('{ type: kill_agent, target_id: agent-2 }', '99999h'))).toEqual([
      '3:12 actions[0].delay: duration "99999h" is longer than the 24h limit',
    ]);
    expect(errorsOf(one('{ type: kill_agent, target_id: agent-2 }', '1h1h'))[0]).toMatch(
      /^3:12 actions\[0\]\.delay: invalid duration "1h1h": units must each appear once/,
    );
    expect(errorsOf(one('{ type: kill_agent, target_id: agent-2 }', '.inf'))[0]).toMatch(
      /actions\[0\]\.delay: invalid duration Infinity: not a finite number/,
    );
    expect(errorsOf(one('{ type: pause_agent, target_id: agent-2, metadata: { duration: 25h } }'))[0]).toMatch(
      /metadata\.duration: duration "25h" is longer than the 24h limit/,
    );
    expect(checkScenarioText(one('{ type: kill_agent, target_id: agent-2 }', '24h')).valid).toBe(true);
  });

  it('slow_agent with a delay of 0 (given, or taken from duration) is refused: the target would refuse it at run time', () => {
    expect(errorsOf(one('{ type: slow_agent, target_id: agent-2, metadata: { delay: 0 } }'))).toEqual([
      '4:72 actions[0].action.metadata.delay: must be greater than 0 (a delay of 0 slows nothing)',
    ]);
    expect(errorsOf(one('{ type: slow_agent, target_id: agent-2, metadata: { duration: 0ms } }'))[0]).toMatch(
      /metadata\.duration: slow_agent takes its delay from duration/,
    );
    expect(
      checkScenarioText(one('{ type: slow_agent, target_id: agent-2, metadata: { duration: 0, delay: 5ms } }')).valid,
    ).toBe(true);
  });

  it('a parameter the fault would ignore is an error, not silently dropped', () => {
    expect(errorsOf(one('{ type: kill_leader, target_id: agent-2 }'))).toEqual([
      '4:45 actions[0].action.target_id: kill_leader finds its own target (the current leader); remove target_id "agent-2"',
    ]);
    expect(errorsOf(one('{ type: kill_agent, target_id: agent-2, source_id: agent-1 }'))[0]).toMatch(
      /action\.source_id: only remove_edge takes source_id/,
    );
    expect(errorsOf(one('{ type: remove_node, target_id: random }'))[0]).toMatch(
      /action\.target_id: "random" picks a running agent; remove_node needs a DAG node id/,
    );
  });
});

describe('the report says which faults it reverted, also when none', () => {
  it('reverted_faults is [] when nothing was active at the end', async () => {
    const { runScenarioReport } = await import('../../../../src/arena/scenario/index.js');
    const { ArenaService } = await import('../../../../src/arena/service.js');
    const { Injector } = await import('../../../../src/arena/injector.js');
    const { createFakeTarget } = await import('../../../helpers/fake-target.js');
    const { loadScenario } = await import('../../../../src/arena/scenario/load.js');
    const target = createFakeTarget({ recovery: true });
    await target.start();
    try {
      const service = new ArenaService({
        injector: new Injector(target.runtime, target.dag),
        observer: target.observer,
      });
      const report = await runScenarioReport(
        service,
        loadScenario('name: quiet\nactions:\n  - action: { type: resume_agent, target_id: agent-1 }\n'),
        { pollIntervalMs: 5, recoveryDeadlineMs: 100 },
      );
      expect(report.reverted_faults).toEqual([]);
      expect(JSON.parse(JSON.stringify(report))).toHaveProperty('reverted_faults', []);
    } finally {
      await target.stop();
    }
  });
});
