/** Running a scenario on a whole target (start, run, revert, stop — always), and the deprecated results-only form. */
import type { Result } from '../action.js';
import type { Target } from '../providers.js';
import type { ScenarioReport } from '../report.js';
import type { ArenaService } from '../service.js';
import { assertSupported } from '../support.js';
import { runOnTarget, type TargetRunOptions } from '../run/on-target.js';
import { runScenarioReport, type RunScenarioOptions } from './run.js';
import type { Scenario } from './types.js';

export interface RunOnTargetOptions extends RunScenarioOptions, TargetRunOptions {}

/**
 * Starts the target, runs the scenario against it, reverts every fault and
 * stops the target, whatever happens in between (../run/on-target.ts).
 */
export async function runScenarioOnTarget(
  target: Target,
  scenario: Scenario,
  options: RunOnTargetOptions = {},
): Promise<ScenarioReport> {
  const report = await runOnTarget(target, options, {
    check: () =>
      assertSupported(
        target,
        scenario.actions.map((a) => a.action.type),
        `scenario ${scenario.name}`,
        scenario.actions.map((a) => a.action),
      ),
    async run(service, strategy) {
      const done = await runScenarioReport(service, scenario, {
        ...options,
        observer: target.observer,
        strategy,
        ...(target.calls ? { calls: target.calls } : {}),
      });
      // how the agents ended the run: a process target counts the restarts its supervisor made (pids that changed)
      const agents = await target.runtime.listAgents().catch(() => undefined);
      if (agents) done.agents = agents;
      const markers = target.markers?.() ?? [];
      if (markers.length > 0) done.markers = markers;
      return done;
    },
  });
  // a revert or stop that failed after the run is an error in the report: nothing is verified then
  if (report.error !== undefined) report.verified = false;
  return report;
}

/** @deprecated use runScenarioReport, which also returns the measured score and verification */
export async function runScenario(
  service: ArenaService,
  scenario: Scenario,
  options: RunScenarioOptions = {},
): Promise<Result[]> {
  const report = await runScenarioReport(service, scenario, options);
  return report.results.map((o) => o.result);
}
