/** From the trials and their attributed calls to the report's body (./report.ts). */
import type { Attribution, TrialWindow } from './attribute.js';
import { isRunaway, median, sum, trialBehaviour, type TrialBehaviour } from './behaviour.js';
import { addCounts, type MarkerCounts } from './markers.js';
import type { Arm } from './plan.js';
import {
  armStats,
  deltaTable,
  meanTable,
  type ArmStats,
  type SurfacePoint,
  type TaskReport,
  type TrialMarkers,
  type TrialsBody,
} from './report.js';
import type { ModelPrice, TrialTaskInfo } from './tasks.js';

export interface TrialRecord extends TrialWindow {
  task: string;
  arm: string;
  round: number;
  passed: boolean;
  detail?: string;
  /** how far the quiet faults' markers travelled while this trial was in flight (./markers.ts) */
  markers?: MarkerCounts;
}

export interface SummaryInput {
  n: number;
  ks: readonly number[];
  seed: number;
  scenario: string | null;
  tasks: readonly TrialTaskInfo[];
  sideEffects: readonly string[];
  prices: Readonly<Record<string, ModelPrice>>;
  trials: readonly TrialRecord[];
  arms: readonly Arm[];
  /** undefined when the target records no calls: behaviour and cost are then null */
  attribution: Attribution | undefined;
  dropped: number | null;
  /** marker sightings while no trial was in flight; null when the target keeps no marker book */
  unattributedMarkers: MarkerCounts | null;
  faults: TrialsBody['faults'];
  duration_ms: number;
}

export function summarise(input: SummaryInput): TrialsBody {
  const { ks, attribution } = input;
  const statsOf = (task: string, arm: string): ArmStats => {
    const mine = input.trials.filter((t) => t.task === task && t.arm === arm);
    return armStats(mine.length, mine.filter((t) => t.passed).length, ks);
  };
  const hasFaulted = input.arms.some((a) => a.name === 'faulted');
  const tasks: TaskReport[] = input.tasks.map((task) => {
    const clean = statsOf(task.id, 'clean');
    const faulted = hasFaulted ? statsOf(task.id, 'faulted') : null;
    const behaviourOf = (arm: string): TrialBehaviour[] | undefined =>
      attribution &&
      input.trials
        .filter((t) => t.task === task.id && t.arm === arm)
        .map((t) =>
          trialBehaviour(
            attribution.byTrial.get(t.id) ?? [],
            { passed: t.passed, needs: task.needs },
            input.sideEffects,
            input.prices,
          ),
        );
    const b = { clean: behaviourOf('clean'), faulted: hasFaulted ? behaviourOf('faulted') : undefined };
    const med = (list: TrialBehaviour[] | undefined, pick: (x: TrialBehaviour) => number) =>
      list ? median(list.map(pick)) : null;
    const llm = { clean: med(b.clean, (x) => x.llm_calls), faulted: med(b.faulted, (x) => x.llm_calls) };
    const tool = { clean: med(b.clean, (x) => x.tool_calls), faulted: med(b.faulted, (x) => x.tool_calls) };
    const runawayTrials =
      b.faulted && b.clean
        ? b.faulted.filter((x) => isRunaway(x.llm_calls, llm.clean ?? 0) || isRunaway(x.tool_calls, tool.clean ?? 0))
            .length
        : null;
    const runaway =
      llm.faulted !== null && tool.faulted !== null
        ? isRunaway(llm.faulted, llm.clean ?? 0) || isRunaway(tool.faulted, tool.clean ?? 0)
        : null;
    const windows = new Map(input.trials.filter((t) => t.task === task.id).map((t) => [t.id, t]));
    const unattributed = attribution
      ? attribution.unattributed.filter((r) =>
          [...windows.values()].some((w) => w.started_ms <= r.started_ms && r.started_ms <= w.ended_ms),
        ).length
      : null;
    const total = (list: TrialBehaviour[] | undefined, pick: (x: TrialBehaviour) => number | undefined) =>
      list ? sum(list.map(pick)) : null;
    return {
      id: task.id,
      clean,
      faulted,
      delta: faulted ? deltaTable(faulted.pass_k, clean.pass_k) : null,
      behaviour: {
        llm_calls: llm,
        tool_calls: tool,
        runaway,
        runaway_trials: runawayTrials,
        duplicate_side_effects: b.faulted ? b.faulted.reduce((s, x) => s + x.duplicate_side_effects, 0) : null,
        false_success: b.faulted ? b.faulted.filter((x) => x.false_success).length : null,
        unattributed_calls: unattributed,
        markers: input.unattributedMarkers ? markersByArm(input.trials, task.id, input.arms) : null,
      },
      cost: {
        tokens: { clean: total(b.clean, (x) => x.tokens), faulted: total(b.faulted, (x) => x.tokens) },
        usd: { clean: total(b.clean, (x) => x.usd), faulted: total(b.faulted, (x) => x.usd) },
      },
    };
  });
  const overallClean = meanTable(tasks.map((t) => t.clean.pass_k));
  const overallFaulted = hasFaulted ? meanTable(tasks.map((t) => t.faulted!.pass_k)) : null;
  const surfaceArms = input.arms.filter((a) => a.intensity !== undefined);
  const body: TrialsBody = {
    n: input.n,
    k: [...ks],
    seed: input.seed,
    scenario: input.scenario,
    tasks,
    overall: {
      clean: overallClean,
      faulted: overallFaulted,
      delta: overallFaulted ? deltaTable(overallFaulted, overallClean) : null,
    },
    unattributed_calls: attribution ? attribution.unattributed.length : null,
    dropped_calls: input.dropped,
    unattributed_markers: input.unattributedMarkers,
    faults: input.faults,
    duration_ms: input.duration_ms,
  };
  if (surfaceArms.length > 0)
    body.surface = surfaceArms.map((arm): SurfacePoint => {
      const perTask = input.tasks.map((t) => ({ id: t.id, ...statsOf(t.id, arm.name) }));
      return { intensity: arm.intensity!, pass_k: meanTable(perTask.map((t) => t.pass_k)), tasks: perTask };
    });
  return body;
}

/** per arm, the markers the task's trials carried, and in how many of its trials any travelled */
function markersByArm(
  trials: readonly TrialRecord[],
  task: string,
  arms: readonly Arm[],
): Record<string, TrialMarkers> {
  const out: Record<string, TrialMarkers> = {};
  for (const arm of arms) {
    let counts: MarkerCounts = { entered_context: 0, drove_action: 0, reached_user: 0 };
    let carrying = 0;
    for (const t of trials) {
      if (t.task !== task || t.arm !== arm.name || !t.markers) continue;
      counts = addCounts(counts, t.markers);
      if (t.markers.entered_context + t.markers.drove_action + t.markers.reached_user > 0) carrying++;
    }
    out[arm.name] = { ...counts, trials: carrying };
  }
  return out;
}
