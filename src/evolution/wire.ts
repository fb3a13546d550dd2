/**
 * One call for whoever assembles a server or an embedding: runtime evolution
 * (its bridge, `runtimeEvolution.bridge`, is the `evolutionBridge` to give an
 * ArenaService: failed actions → patches on the running runtime), plus the two
 * services the Evolution and RuntimeEvolution route groups serve.
 */
import type { EventStore } from '../arena/event-store.js';
import type { Clock } from '../shared/clock.js';
import type { Strategy } from '../runtime/strategy.js';
import { createRuntimeEvolution, type RuntimeEvolution } from './bridge.js';
import type { DecisionPolicy } from './coordinator.js';
import { runtimeIdleProbe } from './idle.js';
import { RuntimeEvolutionService } from './runtime-service.js';
import { EvolutionService, type EvolutionServiceOptions } from './service.js';

export interface EvolutionWiringOptions {
  runtime: { strategy(): Strategy; updateStrategy(patch: unknown): Strategy; stats(): { in_flight: number } };
  store?: EventStore;
  clock?: Clock;
  policy?: Partial<DecisionPolicy>;
  fitness: EvolutionServiceOptions['fitness'];
}

export interface EvolutionWiring {
  runtimeEvolution: RuntimeEvolution;
  /** for /api/v1/evolution */
  evolution: EvolutionService;
  /** for /api/v1/runtime-evolution */
  runtimeEvolutionService: RuntimeEvolutionService;
  /** stops a running search and the coordinator's timers */
  stop(): Promise<void>;
}

export function wireEvolution(options: EvolutionWiringOptions): EvolutionWiring {
  const runtimeEvolution = createRuntimeEvolution(options.runtime, {
    ...(options.store ? { store: options.store } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.policy ? { policy: options.policy } : {}),
  });
  const evolution = new EvolutionService({
    coordinator: runtimeEvolution.coordinator,
    runtime: options.runtime,
    isIdle: runtimeIdleProbe(options.runtime),
    ...(options.clock ? { clock: options.clock } : {}),
    fitness: options.fitness,
  });
  return {
    runtimeEvolution,
    evolution,
    runtimeEvolutionService: new RuntimeEvolutionService(runtimeEvolution.coordinator),
    async stop() {
      await evolution.stop();
      runtimeEvolution.dispose();
    },
  };
}
