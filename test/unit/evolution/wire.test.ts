import { afterEach, describe, expect, it } from 'vitest';
import { createEmbeddedTarget, getEmbeddedRuntime } from '../../../src/targets/embedded/index.js';
import { Injector } from '../../../src/arena/injector.js';
import { ArenaService } from '../../../src/arena/service.js';
import { createAction } from '../../../src/arena/actions.js';
import type { Target } from '../../../src/arena/providers.js';
import { MemoryEventStore } from '../../../src/events/memory.js';
import { wireEvolution } from '../../../src/evolution/wire.js';
import { EVOLUTION_DECISIONS_STREAM } from '../../../src/evolution/coordinator.js';
import type { EvolutionService as RouteEvolutionService } from '../../../src/server/groups/evolution.js';
import type { Strategy } from '../../../src/runtime/strategy.js';

let target: Target | undefined;
afterEach(async () => {
  await target?.stop();
  target = undefined;
});

describe('wireEvolution', () => {
  it('gives an arena its runtime evolution bridge and serves both route groups', async () => {
    target = createEmbeddedTarget({ workloadRate: 50 });
    await target.start();
    const runtime = getEmbeddedRuntime(target)!;
    const store = new MemoryEventStore();
    const wiring = wireEvolution({
      runtime,
      store,
      fitness: () => (s: Strategy) => (s.supervisor.enabled ? 50 : 0) + 100 / s.supervisor.backoff_ms,
    });
    const arena = new ArenaService({
      injector: new Injector(target.runtime, target.dag),
      observer: target.observer,
      evolutionBridge: wiring.runtimeEvolution.bridge,
    });
    // both satisfy the route groups' service interface
    const groups: RouteEvolutionService[] = [wiring.evolution, wiring.runtimeEvolutionService];
    expect(groups).toHaveLength(2);

    await arena.execute(createAction('tool_timeout', 'ghost'));
    await wiring.runtimeEvolution.coordinator.flush();
    expect(runtime.strategy().tools.timeout_ms).toBeLessThan(100);
    expect((await store.read(EVOLUTION_DECISIONS_STREAM)).map((e) => e.type)).toEqual(['evolution.applied']);
    expect(wiring.runtimeEvolutionService.runs()).toHaveLength(1);

    const run = wiring.evolution.startRun({ generations: 2, population: 3, idle: true });
    await wiring.evolution.wait();
    expect(wiring.evolution.run(run.id)).toMatchObject({ status: 'completed' });
    await wiring.stop();
  });
});
