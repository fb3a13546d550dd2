/**
 * The dashboard's view of the root: one snapshot with what an operator
 * watches (agents, active faults, totals, recent results, runs going on,
 * workload), built from the live components on every call.
 */
import type { ArenaService } from '../arena/service.js';
import type { Target, AgentInfo, ActiveFault, WorkloadCounters } from '../arena/providers.js';
import type { Result } from './types.js';

export interface DashboardSnapshot {
  at: string;
  target: string;
  agents: AgentInfo[];
  active_faults: ActiveFault[];
  totals: { total: number; succeeded: number; failed: number };
  recent_results: Result[];
  workload: WorkloadCounters;
  survival: { running: boolean; progress?: number };
  scenario_running: boolean;
}

export interface DashboardPort {
  snapshot(): Promise<DashboardSnapshot>;
}

export function createDashboard(deps: {
  service: ArenaService;
  target: Target;
  isScenarioRunning: () => boolean;
  recent?: number;
}): DashboardPort {
  const recent = deps.recent ?? 20;
  return {
    async snapshot() {
      const stats = deps.service.stats();
      const survival = deps.service.getSurvivalStatus();
      const [agents, activeFaults, workload] = await Promise.all([
        deps.target.runtime.listAgents(),
        deps.target.runtime.activeFaults(),
        deps.target.observer.workload(),
      ]);
      return {
        at: deps.service.clock.wallNow().toISOString(),
        target: deps.target.name,
        agents,
        active_faults: activeFaults,
        totals: { total: stats.total, succeeded: stats.succeeded, failed: stats.failed },
        recent_results: deps.service.history().slice(-recent),
        workload,
        survival: survival.running ? { running: true, progress: survival.progress } : { running: false },
        scenario_running: deps.isScenarioRunning(),
      };
    },
  };
}
