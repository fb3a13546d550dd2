/**
 * From the trials a run gathered, wherever they ran (one target here, or blocks on workers), to the
 * report: the summary, the gates, and the status (inconclusive when no fault landed, failed when a
 * stop condition tripped, interrupted or stopped when cut short).
 */
import { isArenaError } from '../../shared/errors.js';
import type { StopWatch } from '../safety/watch.js';
import type { Attribution } from './attribute.js';
import type { FaultTally } from './block.js';
import type { MarkerCounts } from './markers.js';
import { evaluateGates } from './gates.js';
import type { Arm } from './plan.js';
import type { TrialsReport } from './report.js';
import type { Scenario } from '../scenario/types.js';
import type { TrialGates } from './gates.js';
import { summarise, type TrialRecord } from './summary.js';
import type { TrialTasks } from './tasks.js';

/** the parts of the trials' options (./run.ts) the report is built from */
export interface ReportOptions {
  n: number;
  ks: readonly number[];
  seed: number;
  scenario?: Scenario | undefined;
  gates?: TrialGates | undefined;
  signal?: AbortSignal | undefined;
}

export interface TrialsGathered {
  options: ReportOptions;
  tasks: Pick<TrialTasks, 'tasks' | 'sideEffects' | 'prices'>;
  arms: readonly Arm[];
  trials: readonly TrialRecord[];
  attribution: Attribution | undefined;
  dropped: number | null;
  /** marker sightings outside every trial; null when the target keeps no marker book */
  unattributedMarkers: MarkerCounts | null;
  faults: FaultTally;
  duration_ms: number;
  stoppedBy?: ReturnType<StopWatch['stoppedBy']> | undefined;
  interrupted: boolean;
  /** a block that ended in an error (its target would not stop, a revert failed) */
  error?: string | undefined;
}

export function finishReport(g: TrialsGathered): TrialsReport {
  const { options } = g;
  const scenario = options.scenario;
  const body = summarise({
    n: options.n,
    ks: options.ks,
    seed: options.seed,
    scenario: scenario?.name ?? null,
    tasks: g.tasks.tasks,
    sideEffects: g.tasks.sideEffects,
    prices: g.tasks.prices,
    trials: g.trials,
    arms: g.arms,
    attribution: g.attribution,
    dropped: g.dropped,
    unattributedMarkers: g.unattributedMarkers,
    faults: g.faults,
    duration_ms: g.duration_ms,
  });
  const report: TrialsReport = { schema_version: 1, status: 'passed', trials: body };
  if (options.gates) {
    report.gates = evaluateGates(body, options.gates);
    if (report.gates.some((gate) => !gate.passed)) report.status = 'failed';
  }
  if (scenario && g.faults.applied === 0) {
    report.status = 'inconclusive';
    report.error = `no fault of scenario ${scenario.name} was applied (first: ${g.faults.first_error ?? 'none'}): the faulted trials ran clean`;
  }
  if (g.stoppedBy) {
    // the system was being hurt: whatever the trials say, the verdict is failed
    report.status = 'failed';
    report.stopped_by = g.stoppedBy;
    report.error = `stopped early by ${g.stoppedBy.condition}: ${g.stoppedBy.reason}; faults reverted, partial trials reported`;
  } else if (g.interrupted) report.status = isArenaError(options.signal?.reason, 'stopped') ? 'stopped' : 'interrupted';
  else if (g.error !== undefined) {
    report.status = 'error';
    report.error = g.error;
  }
  return report;
}
