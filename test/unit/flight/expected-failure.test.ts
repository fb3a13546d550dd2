/** An action a scenario marks `expect_failure` is meant to fail: its failure is on the timeline but is no problem. */
import { describe, expect, it } from 'vitest';
import { createAction } from '../../../src/arena/actions.js';
import { loadScenario, runScenarioOnTarget } from '../../../src/arena/scenario/index.js';
import { MemoryEventStore } from '../../../src/events/memory.js';
import { FlightRecorder } from '../../../src/flight/recorder.js';
import { recordRunEvents } from '../../../src/flight/run-listener.js';
import { createEmbeddedTarget } from '../../../src/targets/embedded/index.js';

describe('flight diagnostics and expected failures', () => {
  it('the recorder files no diagnostic or failure evidence for a failure that was expected, and counts it apart', async () => {
    const recorder = new FlightRecorder({ store: new MemoryEventStore(), session: 's' });
    const failed = (id: string) => ({
      success: false,
      action: { ...createAction('resume_agent', 'agent-1'), id },
      error: 'agent agent-1 is not paused',
      duration_ms: 1,
    });
    await recorder.record(failed('meant'), { expectFailure: true });
    await recorder.record(failed('broken'));
    expect((await recorder.timeline()).map((r) => [r.id, r.success, r.expected_failure ?? false])).toEqual([
      ['meant', false, true],
      ['broken', false, false],
    ]);
    expect((await recorder.diagnostics()).map((d) => d.action_id)).toEqual(['broken']);
    expect((await recorder.evidence()).map((e) => e.action_id)).toEqual(['broken']);
    expect((await recorder.summary()).failed).toBe(1);
  });

  it('a scenario run tells both the flight bridge and the run recording which step was meant to fail', async () => {
    const target = createEmbeddedTarget({ seed: 3, workloadRate: 20 });
    const scenario = loadScenario(`name: meant-to-fail
config: { warmup: 50ms, cooldown: 100ms }
actions:
  - { label: meant, expect_failure: true, action: { type: resume_agent, target_id: agent-1 } }
  - { label: broken, delay: 10ms, action: { type: resume_agent, target_id: agent-2 } }
`);
    const bridge = new FlightRecorder({ store: new MemoryEventStore(), session: 'bridge' });
    const recording = recordRunEvents(new MemoryEventStore(), { session: 'events' });
    await runScenarioOnTarget(target, scenario, {
      pollIntervalMs: 5,
      recoveryDeadlineMs: 300,
      flightBridge: bridge,
      onEvent: recording.listener,
    });
    await bridge.flush();
    await recording.flush();
    for (const recorder of [bridge, recording.recorder]) {
      const timeline = await recorder.timeline();
      expect(timeline.map((r) => [r.target_id, r.success, r.expected_failure ?? false])).toEqual([
        ['agent-1', false, true],
        ['agent-2', false, false],
      ]);
      expect((await recorder.diagnostics()).map((d) => d.target_id)).toEqual(['agent-2']);
    }
  });
});
