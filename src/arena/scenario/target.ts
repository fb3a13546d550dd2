/** Running a scenario on a whole target (start, run, revert, stop — always), and the deprecated results-only form. */
import type { Result } from '../action.js';
import type { EventStore } from '../event-store.js';
import type { EvidenceStore, EvolutionBridge, FlightBridge } from '../bridges.js';
import { Injector } from '../injector.js';
import type { Target } from '../providers.js';
import type { ScenarioReport } from '../report.js';
import { ArenaService } from '../service.js';
import { assertSupported } from '../support.js';
import { runScenarioReport, type RunScenarioOptions } from './run.js';
import type { Scenario } from './types.js';

export interface RunOnTargetOptions extends RunScenarioOptions {
  eventStore?: EventStore;
  evidenceStore?: EvidenceStore;
  flightBridge?: FlightBridge;
  evolutionBridge?: EvolutionBridge;
}

/**
 * Starts the target, runs the scenario against it, reverts every fault and
 * stops the target, whatever happens in between.
 */
export async function runScenarioOnTarget(target: Target, scenario: Scenario, options: RunOnTargetOptions = {}): Promise<ScenarioReport> {
  try {
    await target.start();
    // what the target supports is known once it started (a remote one says so itself)
    assertSupported(target, scenario.actions.map((a) => a.action.type), `scenario ${scenario.name}`);
  } catch (err) {
    await target.stop().catch(() => undefined);
    throw err;
  }
  try {
    const service = new ArenaService({
      injector: new Injector(target.runtime, target.dag),
      observer: target.observer,
      clock: options.clock,
      eventStore: options.eventStore,
      evidenceStore: options.evidenceStore,
    });
    service.setFlightBridge(options.flightBridge);
    service.setEvolutionBridge(options.evolutionBridge);
    const strategy = options.strategy ?? (await target.describe()).strategy;
    const report = await runScenarioReport(service, scenario, { ...options, observer: target.observer, strategy });
    // how the agents ended the run: a process target counts the restarts its supervisor made (pids that changed)
    const agents = await target.runtime.listAgents().catch(() => undefined);
    if (agents) report.agents = agents;
    return report;
  } finally {
    try {
      await target.runtime.revertAll();
    } finally {
      await target.stop();
    }
  }
}

/** @deprecated use runScenarioReport, which also returns the measured score and verification */
export async function runScenario(service: ArenaService, scenario: Scenario, options: RunScenarioOptions = {}): Promise<Result[]> {
  const report = await runScenarioReport(service, scenario, options);
  return report.results.map((o) => o.result);
}
