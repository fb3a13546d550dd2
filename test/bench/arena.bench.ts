/**
 * What ArenaService.execute costs on top of the fault itself: the same
 * pause → resume pair on the embedded target, once through the provider
 * directly (baseline) and once through the service (validation of metadata,
 * history, stats, metrics, an event appended to an in-memory store, a flight
 * bridge). vitest prints the ratio between the two in its summary.
 *   npx vitest bench --run test/bench/arena.bench.ts
 * Wall time per call on a shared machine is noisy (vitest's rme is often ±30 %).
 */
import { afterAll, bench, describe } from 'vitest';
import { createEmbeddedTarget } from '../../src/targets/embedded/index.js';
import { ArenaService } from '../../src/arena/service.js';
import { Injector } from '../../src/arena/injector.js';
import { createAction } from '../../src/arena/actions.js';
import { MemoryEventStore } from '../../src/events/memory.js';

const target = createEmbeddedTarget({ workloadRate: 5 });
await target.start();
let recorded = 0;
const service = new ArenaService({
  injector: new Injector(target.runtime, target.dag),
  eventStore: new MemoryEventStore(),
  flightBridge: { record: () => void recorded++ },
  historyLimit: 1000,
});

afterAll(async () => {
  await target.stop();
});

describe('pause + resume one agent', () => {
  bench('provider directly (baseline)', async () => {
    await target.runtime.pauseAgent('agent-2');
    await target.runtime.resumeAgent('agent-2');
  });

  bench('ArenaService.execute', async () => {
    const paused = await service.execute(createAction('pause_agent', 'agent-2'));
    const resumed = await service.execute(createAction('resume_agent', 'agent-2'));
    if (!paused.success || !resumed.success) throw new Error(paused.error ?? resumed.error);
  });
});
