/** The arena's Injector driving the embedded target: self-targeting faults and LLM error types. */
import { afterEach, describe, expect, it } from 'vitest';
import { Injector } from '../../../src/arena/injector.js';
import { LOUD_LLM_ERROR_TYPES } from '../../../src/protocol/llm-faults.js';
import type { Target } from '../../../src/arena/providers.js';
import { createEmbeddedTarget, getEmbeddedRuntime } from '../../../src/targets/embedded/index.js';
import { RECOVERY_OFF_STRATEGY } from '../../../src/runtime/strategy.js';
import { LlmError } from '../../../src/runtime/llm/index.js';
import { waitFor } from './wait.js';

let target: Target | undefined;
afterEach(async () => {
  await target?.stop();
  target = undefined;
});

describe('Injector on the embedded target', () => {
  it('kill_leader and kill_orchestrator find their victim and report its id', async () => {
    target = createEmbeddedTarget({ workloadRate: 50 });
    await target.start();
    const rt = getEmbeddedRuntime(target)!;
    const injector = new Injector(target.runtime, target.dag);
    const leader = rt.leaderId();
    expect(await injector.killLeader()).toMatchObject({ killed_leader_id: leader });
    expect(await injector.killOrchestrator()).toMatchObject({ killed_orchestrator_id: 'orchestrator-1' });
    await waitFor(
      () => rt.leaderId() !== leader && rt.activeOrchestratorId() === 'orchestrator-2',
      'new leader and orchestrator',
    );
  });

  it('llm_failure makes the primary fail with each error type its simulated LLM applies', async () => {
    target = createEmbeddedTarget({ strategy: RECOVERY_OFF_STRATEGY, workloadRate: 0 });
    await target.start();
    const llm = () => getEmbeddedRuntime(target!)!.agent('agent-2').subsystems.llm;
    const injector = new Injector(target.runtime, target.dag);
    for (const type of LOUD_LLM_ERROR_TYPES) {
      await injector.injectLlmFailure('agent-2', type, 10_000);
      const error = await llm()
        .complete({ messages: [{ role: 'user', content: 'echo: hi' }] })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(LlmError);
      expect((error as LlmError).errorType).toBe(type);
    }
    expect(await target.runtime.activeFaults()).toHaveLength(1);
    await target.runtime.revertAll();
    await expect(llm().complete({ messages: [{ role: 'user', content: 'echo: hi' }] })).resolves.toMatchObject({
      text: 'hi',
    });
  });

  it('a fault that cannot be applied fails with a clear error and is not reported as active', async () => {
    target = createEmbeddedTarget({ strategy: RECOVERY_OFF_STRATEGY, workloadRate: 0 });
    await target.start();
    const injector = new Injector(target.runtime, target.dag);
    await injector.killAgent('agent-3');
    await expect(injector.killAgent('agent-3')).rejects.toThrow(
      /agent agent-3 is stopped; the fault cannot be applied/,
    );
    await expect(injector.slowAgent('agent-3', { delayMs: 100 })).rejects.toThrow(/stopped/);
    expect(await target.runtime.activeFaults()).toEqual([]);
  });
});
