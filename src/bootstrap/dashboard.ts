/**
 * The dashboard's view of the root: one snapshot with what an operator
 * watches (agents, active faults, totals, recent results, runs going on,
 * workload), built from the live components on every call.
 */
import type { ArenaService } from '../arena/service.js';
import type { Target, AgentInfo, ActiveFault, WorkloadCounters, DAGEdge } from '../arena/providers.js';
import { ACTION_TYPES, type ActionType } from '../arena/action.js';
import type { Result } from './types.js';
import type { RunSummary } from './run-log.js';

export interface DashboardSnapshot {
  at: string;
  /** the target's clock now, the clock of active_faults' started_at_ms / ends_at_ms (time left = ends_at_ms - now_ms) */
  now_ms: number;
  target: string;
  /** the fault types this target can apply (the console offers these) */
  faults: readonly ActionType[];
  dag: { nodes: string[]; edges: DAGEdge[] };
  agents: AgentInfo[];
  active_faults: ActiveFault[];
  totals: { total: number; succeeded: number; failed: number };
  recent_results: Result[];
  workload: WorkloadCounters;
  survival: { running: boolean; progress?: number };
  scenario_running: boolean;
  /** the runs started on this server, oldest first (the last 20) */
  runs: RunSummary[];
}

export interface DashboardPort {
  snapshot(): Promise<DashboardSnapshot>;
}

export function createDashboard(deps: {
  service: ArenaService;
  target: Target;
  isScenarioRunning: () => boolean;
  runs?: () => RunSummary[];
  recent?: number;
}): DashboardPort {
  const recent = deps.recent ?? 20;
  return {
    async snapshot() {
      const stats = deps.service.stats();
      const survival = deps.service.getSurvivalStatus();
      const refused = deps.target.unsupportedFaults();
      const [agents, activeFaults, workload, nodes, edges] = await Promise.all([
        deps.target.runtime.listAgents(),
        deps.target.runtime.activeFaults(),
        deps.target.observer.workload(),
        deps.target.dag?.listNodes() ?? [],
        deps.target.dag?.listEdges() ?? [],
      ]);
      return {
        at: deps.service.clock.wallNow().toISOString(),
        now_ms: deps.service.clock.now(),
        target: deps.target.name,
        // the faults the console may offer: exactly what this target can apply
        faults: ACTION_TYPES.filter((t) => refused[t] === undefined),
        dag: { nodes, edges },
        agents,
        active_faults: activeFaults,
        totals: { total: stats.total, succeeded: stats.succeeded, failed: stats.failed },
        recent_results: deps.service.history().slice(-recent),
        workload,
        survival: survival.running ? { running: true, progress: survival.progress } : { running: false },
        scenario_running: deps.isScenarioRunning(),
        runs: deps.runs?.() ?? [],
      };
    },
  };
}
