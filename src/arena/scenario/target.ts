/** Running a scenario on a whole target (start, run, revert, stop — always), and the deprecated results-only form. */
import type { Result } from '../action.js';
import type { EventStore } from '../event-store.js';
import type { EvidenceStore, EvolutionBridge, FlightBridge } from '../bridges.js';
import { Injector } from '../injector.js';
import { errorMessage } from '../../shared/errors.js';
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
  let report: ScenarioReport | undefined;
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
    report = await runScenarioReport(service, scenario, { ...options, observer: target.observer, strategy });
    // how the agents ended the run: a process target counts the restarts its supervisor made (pids that changed)
    const agents = await target.runtime.listAgents().catch(() => undefined);
    if (agents) report.agents = agents;
  } finally {
    // reverted and stopped whatever happened; a failure here is told in the report, not lost with it
    // (when the run itself threw, that error is the one the caller sees)
    const problems = new Set<string>();
    await target.runtime.revertAll().catch((err: unknown) => problems.add(errorMessage(err)));
    // stopping reverts too: the same failure is said once
    await target.stop().catch((err: unknown) => problems.add(errorMessage(err)));
    if (report && problems.size > 0) {
      const said = report.error ?? '';
      const fresh = [...problems].filter((p) => !said.includes(p));
      if (fresh.length > 0) report.error = [said, ...fresh].filter(Boolean).join('; ');
      if (report.status !== 'interrupted') report.status = 'error';
      report.verified = false;
    }
  }
  return report;
}

/** @deprecated use runScenarioReport, which also returns the measured score and verification */
export async function runScenario(service: ArenaService, scenario: Scenario, options: RunScenarioOptions = {}): Promise<Result[]> {
  const report = await runScenarioReport(service, scenario, options);
  return report.results.map((o) => o.result);
}
