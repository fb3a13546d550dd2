import { describe, expect, it } from 'vitest';
import { targetRunner, type ShrinkFault } from '../../../../src/arena/shrink/index.js';
import { RuntimeError, UsageError } from '../../../../src/shared/errors.js';
import { createFakeTarget } from '../../../helpers/fake-target.js';

const kill: ShrinkFault = { id: 0, label: 'kill-3', type: 'kill_agent', target_id: 'agent-3', at_ms: 0 };
// on the fake target without recovery, a second kill of the same agent fails: it is already dead
const again: ShrinkFault = {
  id: 1,
  label: 'kill-3-again',
  type: 'kill_agent',
  target_id: 'agent-3',
  at_ms: 20,
  expect_success: true,
};
const draft = {
  name: 'x',
  seed: 1,
  signature: { failures: ['expectation:kill-3-again'], families: [] },
  config: { warmup_ms: 20, recovery_deadline_ms: 50 },
};

describe('targetRunner: one candidate as a real scenario run', () => {
  it('fails with the signature only when the run fails that way', async () => {
    const run = targetRunner({ ...draft, createTarget: async () => createFakeTarget({ recovery: false }) });
    expect(await run({ faults: [kill, again], cooldown_ms: 50 })).toBe('fail');
    expect(await run({ faults: [again], cooldown_ms: 50 })).toBe('pass');
  });

  it('runs the empty schedule as the same scenario without any fault (the certificate of a last fault)', async () => {
    const target = createFakeTarget({ recovery: false });
    const run = targetRunner({ ...draft, createTarget: async () => target });
    expect(await run({ faults: [], cooldown_ms: 50 })).toBe('pass');
  });

  it('a target that did not start is unjudged; a candidate the target refuses is an error, not retried', async () => {
    const broken = targetRunner({
      ...draft,
      createTarget: async () => {
        throw new RuntimeError('could not start');
      },
    });
    expect(await broken({ faults: [again], cooldown_ms: 50 })).toBe('unjudged');
    const refusing = targetRunner({
      ...draft,
      createTarget: async () => {
        throw new UsageError('agent-9 is not an agent of this target');
      },
    });
    await expect(refusing({ faults: [again], cooldown_ms: 50 })).rejects.toThrow(/agent-9/);
  });
});
