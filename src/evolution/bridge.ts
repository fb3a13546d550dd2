/**
 * The arena's EvolutionBridge: every failed action becomes a PatchProposal
 * against the strategy in force; priority ≥ 9 (leader, orchestrator loss) is
 * applied at once through applyEmergency, the rest go to the coordinator's
 * policy. `createRuntimeEvolution(runtime)` wires both to a running runtime,
 * so accepted patches show in `runtime.strategy()`.
 */
import type { Result } from '../arena/action.js';
import type { EvolutionBridge } from '../arena/bridges.js';
import type { EventStore } from '../arena/event-store.js';
import { systemClock, type Clock } from '../shared/clock.js';
import {
  EvolutionCoordinator,
  type CoordinatorOptions,
  type CoordinatorStatus,
  type Decision,
  type DecisionPolicy,
  type StrategyHolder,
} from './coordinator.js';
import { EMERGENCY_PRIORITY, proposePatch, type PatchProposal } from './proposals.js';

export class ArenaEvolutionBridge implements EvolutionBridge {
  private readonly proposals: PatchProposal[] = [];

  constructor(
    readonly coordinator: EvolutionCoordinator,
    private readonly clock: Clock = systemClock,
  ) {}

  async onFailure(result: Result): Promise<void> {
    await this.handle(result);
  }

  /** the proposal for `result` and what was decided about it */
  async handle(result: Result): Promise<{ proposal: PatchProposal; decision: Decision }> {
    const proposal = proposePatch(result, this.coordinator.currentStrategy(), this.clock.wallNow());
    this.proposals.push(proposal);
    const decision =
      proposal.priority >= EMERGENCY_PRIORITY
        ? await this.coordinator.applyEmergency(proposal)
        : await this.coordinator.submit(proposal);
    return { proposal, decision };
  }

  history(): PatchProposal[] {
    return [...this.proposals];
  }
}

export interface RuntimeEvolutionOptions {
  policy?: Partial<DecisionPolicy>;
  clock?: Clock;
  store?: EventStore;
  estimate?: CoordinatorOptions['estimate'];
}

export interface RuntimeEvolution {
  coordinator: EvolutionCoordinator;
  bridge: ArenaEvolutionBridge;
  /** what the runtime evolution did: decisions counts, pending, the strategy in force and its estimate */
  status(): Promise<CoordinatorStatus>;
  dispose(): void;
}

/** runtime evolution: failed arena actions → patches applied to this running runtime */
export function createRuntimeEvolution(
  runtime: StrategyHolder,
  options: RuntimeEvolutionOptions = {},
): RuntimeEvolution {
  const clock = options.clock ?? systemClock;
  const coordinator = new EvolutionCoordinator({
    target: runtime,
    clock,
    ...(options.policy ? { policy: options.policy } : {}),
    ...(options.store ? { store: options.store } : {}),
    ...(options.estimate ? { estimate: options.estimate } : {}),
  });
  const bridge = new ArenaEvolutionBridge(coordinator, clock);
  return { coordinator, bridge, status: () => coordinator.status(), dispose: () => coordinator.dispose() };
}
