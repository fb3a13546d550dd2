/** The plan a dry run prints (DESIGN §6 `--dry-run`): what a real run would do, resolved, nothing injected. */
import type { ActionType } from '../action.js';
import type { AgentInfo, TargetKind } from '../providers.js';
import type { LeftOutKind } from '../report.js';

export interface PlannedFault {
  /** ms since the run starts (warmup included), as a real run's report times it (`at_ms`, `planned_at`) */
  at_ms: number;
  /** the scenario step's label; `#i` for survival tick i */
  label: string;
  type: ActionType;
  /** what it hits: an agent id, `node plan`, `edge plan → tool`; '' when nothing can be named */
  target: string;
  /** the agent's process now (process targets) */
  pid?: number;
  /** the fault proxies in front of that agent */
  proxies?: string[];
  /** how long the fault lasts, when timed */
  duration_ms?: number;
  /** its other parameters, as the run passes them */
  params?: Record<string, unknown>;
  depends_on?: string[];
  /** what only the moment of the fault decides, and the guess made from the target as it is now */
  decided_at_run_time?: string;
}

export interface PlannedAgent extends AgentInfo {
  pid?: number;
  pid_source?: string;
  proxies?: string[];
}

/** `arena trials --dry-run`: the blocks in their seeded order (arena/trials/plan.ts) */
export interface PlannedTrials {
  n: number;
  tasks: string[];
  arms: string[];
  /** every block as the run takes them; a faulted block applies `faults` at its start and reverts them at its end */
  blocks: Array<{ round: number; arm: string; tasks: string[]; faults?: PlannedFault[] }>;
}

export interface DryRunPlan {
  kind: 'scenario' | 'survival' | 'trials';
  name: string;
  seed: number;
  target: {
    name: string;
    kind: TargetKind;
    /** what resolving it started (and stopped again), said plainly */
    started: string;
  };
  agents: PlannedAgent[];
  /** the elected leader now; null when the target names none */
  leader: string | null;
  warmup_ms: number;
  cooldown_ms: number;
  timeline: PlannedFault[];
  /** what cannot be resolved (an unknown agent, a fault the target cannot apply, a pid not found): exit 2 */
  problems: string[];
  /** survival: the default mix's faults this target cannot apply, each with why; not drawn (absent when none) */
  action_kinds_left_out?: LeftOutKind[];
  /** trials only: tasks, arms and blocks; `timeline` then lists every faulted block's faults in order */
  trials?: PlannedTrials;
  /** always 0: a dry run injects nothing */
  injected: 0;
}
