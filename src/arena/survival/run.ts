/**
 * Survival mode: random faults at a fixed interval for a duration, measured
 * like a scenario. Scheduling is absolute (tick i is planned at warmup + i ×
 * interval, never "interval after the previous one finished"), so lateness
 * does not accumulate; a late tick still runs and its lateness is recorded as
 * drift — no tick is skipped. The shared run lifecycle (../run/lifecycle.ts)
 * measures, reverts on every exit path and gates; this file supplies the
 * random plan (or a replayed timeline) and the report's shape.
 */
import type { Action, ActionType } from '../action.js';
import type { RunService } from '../run/service-port.js';
import type { LeftOutKind, RunEventListener, SurvivalReport, SurvivalTick } from '../report.js';
import { createAction } from '../actions.js';
import type { Clock } from '../../shared/clock.js';
import { createRandom, randomSeed } from '../../shared/random.js';
import { durationProblem, tryParseDuration } from '../../shared/duration.js';
import type { GateOn } from '../score.js';
import { runLifecycle } from '../run/lifecycle.js';
import type { EventStore } from '../event-store.js';
import { RuntimeError, UsageError, errorMessage } from '../../shared/errors.js';
import { parseActionKinds, planAction, type TargetView } from './plan.js';
import { driftStats } from './drift.js';
import type { CallLedgerReader } from '../../protocol/calls.js';
import { assertKnownTargets, targetNames, unknownTargetProblems } from '../target-names.js';
import type { StopWhen } from '../safety/types.js';

/**
 * One run plans at most this many actions (duration ÷ interval): every action costs memory and
 * events in the arena and in `arena serve`, so a 24 h run at a 1 ms interval (86 million actions)
 * is refused up front rather than grown without bound.
 */
export const MAX_SURVIVAL_ACTIONS = 100_000;
/** the report's timeline keeps the last this many ticks; counts and drift cover every tick */
export const DEFAULT_TIMELINE_KEEP = 10_000;

export interface SurvivalTimelineEntry {
  planned_at: number;
  action: Action;
}

export interface SurvivalOptions {
  /** how long chaos lasts (ms or "60s") */
  duration: number | string;
  /** time between two actions (ms or "2s") */
  interval: number | string;
  /** kinds to draw from: a list or "kill_agent,slow_agent"; default every kind but resume_agent (DEFAULT_SURVIVAL_ACTIONS) */
  actions?: string | readonly string[];
  seed?: number;
  /** told once when the default fault mix leaves out faults the target cannot apply */
  onNotice?: (message: string) => void;
  /** why an agent cannot take a fault type (Target.agentRefuses): each fault is aimed at agents that can */
  agentRefuses?: (agentId: string, type: ActionType) => string | undefined;
  /** the default mix's kinds the target cannot apply (runSurvivalOnTarget): named in the report */
  kindsLeftOut?: readonly LeftOutKind[];
  /** steady state measured before the first fault (default 0) */
  warmup?: number | string;
  /** recovery watched after the last fault (default 2 × interval, at most 3 s) */
  cooldown?: number | string;
  minScore?: number;
  /** what the gate compares: the score (default) or the lower bound of its 95% interval */
  gate?: GateOn;
  /** runSurvivalOnTarget: the event store its arena service appends the `arena` stream to */
  eventStore?: EventStore;
  /** the strategy in force, copied into the report */
  strategy?: Record<string, unknown>;
  signal?: AbortSignal;
  onEvent?: RunEventListener;
  clock?: Clock;
  /** replay: run exactly these actions at these offsets instead of drawing random ones */
  timeline?: readonly SurvivalTimelineEntry[];
  /** how often a `snapshot` event is emitted (default DEFAULT_SNAPSHOT_INTERVAL_MS) */
  snapshotIntervalMs?: number;
  recoveryDeadlineMs?: number;
  pollIntervalMs?: number;
  /** stop conditions (DESIGN §16, `--stop-when`): when one trips the run ends early, status `failed` */
  stopWhen?: StopWhen;
  /** the target's call ledger: what `spend_above` reads (refused without one) */
  calls?: CallLedgerReader;
  /** where a stop condition's `token_env` is read */
  env?: Record<string, string | undefined>;
  /** ticks kept in the report's timeline, the last ones (default DEFAULT_TIMELINE_KEEP) */
  timelineKeep?: number;
}

export interface ResolvedSurvivalConfig {
  durationMs: number;
  intervalMs: number;
  warmupMs: number;
  cooldownMs: number;
  kinds: ActionType[];
  seed: number;
}

export function resolveSurvivalConfig(options: SurvivalOptions): ResolvedSurvivalConfig {
  const problems: string[] = [];
  const ms = (name: string, value: unknown, fallback?: number): number => {
    if (value === undefined && fallback !== undefined) return fallback;
    const parsed = tryParseDuration(value);
    if (parsed === undefined) {
      problems.push(`${name}: ${durationProblem(value)}`);
      return 0;
    }
    return parsed;
  };
  const timeline = options.timeline;
  const lastPlanned = timeline?.length ? Math.max(...timeline.map((t) => t.planned_at)) : 0;
  const durationMs = timeline ? Math.max(1, lastPlanned + 1) : ms('duration', options.duration);
  const intervalMs = timeline ? 0 : ms('interval', options.interval);
  if (!timeline && durationMs <= 0 && problems.length === 0) problems.push('duration: must be greater than 0');
  if (!timeline && intervalMs <= 0 && !problems.some((p) => p.startsWith('interval')))
    problems.push('interval: must be greater than 0');
  const planned = !timeline && intervalMs > 0 ? Math.ceil(durationMs / intervalMs) : (timeline?.length ?? 0);
  if (planned > MAX_SURVIVAL_ACTIONS)
    problems.push(
      `interval ${intervalMs}ms over duration ${durationMs}ms plans ${planned} actions; at most ${MAX_SURVIVAL_ACTIONS} per run (an interval of at least ${Math.ceil(durationMs / MAX_SURVIVAL_ACTIONS)}ms for this duration)`,
    );
  const warmupMs = ms('warmup', options.warmup, 0);
  const cooldownMs = ms('cooldown', options.cooldown, Math.min(3000, Math.max(100, 2 * (intervalMs || 500))));
  if (
    options.minScore !== undefined &&
    !(Number.isFinite(options.minScore) && options.minScore >= 0 && options.minScore <= 100)
  ) {
    problems.push(`min score: must be a number from 0 to 100 (got ${options.minScore})`);
  }
  if (options.seed !== undefined && !(Number.isInteger(options.seed) && options.seed >= 0)) {
    problems.push(`seed: must be a non-negative integer (got ${options.seed})`);
  }
  let kinds: ActionType[] = [];
  try {
    kinds = timeline ? [...new Set(timeline.map((t) => t.action.type))] : parseActionKinds(options.actions);
  } catch (err) {
    problems.push(errorMessage(err));
  }
  if (problems.length > 0)
    throw new UsageError(`invalid survival options: ${problems.join('; ')}`, {
      code: 'invalid_survival_options',
      details: problems,
    });
  return { durationMs, intervalMs, warmupMs, cooldownMs, kinds, seed: options.seed ?? randomSeed() };
}

export async function runSurvival(service: RunService, options: SurvivalOptions): Promise<SurvivalReport> {
  const config = resolveSurvivalConfig(options);
  const observer = service.observer;
  if (!observer)
    throw new RuntimeError(
      'survival needs a target observer to measure the score: build the ArenaService with `observer`',
      { code: 'no_observer' },
    );
  const clock = options.clock ?? service.clock;
  const injector = service.injector;
  // a replayed timeline names its targets: one the target does not have is refused before anything runs
  if (options.timeline)
    assertKnownTargets(
      unknownTargetProblems(
        options.timeline.map((t, i) => ({ path: `timeline[${i}].action`, action: t.action })),
        await targetNames(injector),
      ),
      'the replayed timeline',
      'the target',
    );
  const random = createRandom(config.seed);
  // the last `keep` ticks, in order; every tick's outcome and drift are counted exactly
  const keep = Math.max(0, options.timelineKeep ?? DEFAULT_TIMELINE_KEEP);
  let timeline: SurvivalTick[] = [];
  let dropped = 0;
  let ran = 0;
  let succeeded = 0;
  let firstFailure: SurvivalTick | undefined;
  let drifts = new Float64Array(1024);
  const record = (tick: SurvivalTick) => {
    if (ran === drifts.length) {
      const grown = new Float64Array(ran * 2);
      grown.set(drifts);
      drifts = grown;
    }
    drifts[ran++] = tick.drift_ms;
    if (tick.result.success) succeeded++;
    else firstFailure ??= tick;
    timeline.push(tick);
    // trimmed in batches: one splice per `keep` ticks, not a shift per tick
    if (timeline.length >= 2 * keep) {
      const cut = timeline.length - keep;
      timeline = timeline.slice(cut);
      dropped += cut;
    }
  };

  const view = async (): Promise<TargetView> => {
    const [agents, nodes, edges] = await Promise.all([injector.agents(), injector.dagNodes(), injector.dagEdges()]);
    const available = agents
      .filter((a) => a.status === 'running')
      .map((a) => a.id)
      .sort();
    return { agents, available, nodes, edges, refuses: options.agentRefuses };
  };

  const run = await runLifecycle(
    {
      kind: 'survival',
      name: options.timeline ? 'replay' : 'survival',
      seed: config.seed,
      service,
      observer,
      clock,
      signal: options.signal,
      onEvent: options.onEvent,
      warmupMs: config.warmupMs,
      cooldownMs: config.cooldownMs,
      plannedMs: config.warmupMs + config.durationMs + config.cooldownMs,
      pollIntervalMs: options.pollIntervalMs,
      recoveryDeadlineMs: options.recoveryDeadlineMs,
      snapshotIntervalMs: options.snapshotIntervalMs,
      minScore: options.minScore,
      gate: options.gate,
      stopWhen: options.stopWhen,
      calls: options.calls,
      env: options.env,
      inconclusive: () =>
        ran > 0 && succeeded === 0
          ? `none of its ${ran} fault(s) was applied (first: ${firstFailure!.action.type}: ${firstFailure!.result.error ?? 'failed'})`
          : undefined,
    },
    async ({ signal, elapsed, action }) => {
      for (let i = 0; ; i++) {
        const entry = options.timeline?.[i];
        if (options.timeline ? !entry : i * config.intervalMs >= config.durationMs) break;
        const plannedAt = entry ? entry.planned_at : config.warmupMs + i * config.intervalMs;
        // timers may fire a fraction of a millisecond early: never run a tick before its planned time
        for (let wait = plannedAt - elapsed(); wait > 0; wait = plannedAt - elapsed()) await clock.sleep(wait, signal);
        if (signal.aborted) break;
        const at = Math.round(elapsed() * 100) / 100;
        const planned = entry
          ? replayAction(entry.action, i, clock)
          : planAction(await view(), {
              random,
              kinds: config.kinds,
              intervalMs: config.intervalMs,
              now: () => clock.wallNow(),
              index: i,
            });
        const result = await service.execute(planned);
        record({
          index: i,
          planned_at: plannedAt,
          at,
          drift_ms: Math.round((at - plannedAt) * 100) / 100,
          action: planned,
          result,
        });
        action(`#${i}`, result, at, true);
      }
    },
  );

  if (timeline.length > keep) {
    dropped += timeline.length - keep;
    timeline = timeline.slice(timeline.length - keep);
  }
  const report: SurvivalReport = {
    seed: config.seed,
    status: run.status,
    started_at: run.started_at,
    duration_ms: config.durationMs,
    elapsed_ms: run.elapsed_ms,
    interval_ms: config.intervalMs,
    action_kinds: config.kinds,
    ...(options.kindsLeftOut?.length ? { action_kinds_left_out: [...options.kindsLeftOut] } : {}),
    actions_run: ran,
    actions_succeeded: succeeded,
    actions_failed: ran - succeeded,
    score: run.score,
    drift: driftStats(drifts.subarray(0, ran)),
    timeline,
    ...(dropped > 0 ? { timeline_dropped: dropped } : {}),
    strategy: options.strategy ?? {},
    reverted_faults: run.reverted,
  };
  if (run.gate) report.gate = run.gate;
  if (run.error) report.error = run.error;
  if (run.inconclusive_why !== undefined) report.inconclusive_why = run.inconclusive_why;
  if (run.stopped_by) report.stopped_by = run.stopped_by;
  if (run.stop_check_errors) report.stop_check_errors = run.stop_check_errors;
  return report;
}

/** a recorded action, run again: same kind, target and parameters, a fresh id */
function replayAction(recorded: Action, index: number, clock: Clock): Action {
  return createAction(recorded.type, recorded.target_id, {
    id: `replay-${index}-${recorded.id}`,
    created_at: clock.wallNow().toISOString(),
    ...(recorded.source_id !== undefined ? { source_id: recorded.source_id } : {}),
    ...(recorded.metadata !== undefined ? { metadata: recorded.metadata } : {}),
  });
}

/** a report whose timeline kept only its last ticks cannot be run again as the same run */
export function assertWholeTimeline(survival: Record<string, unknown>, source: string): void {
  const dropped = survival.timeline_dropped;
  if (typeof dropped === 'number' && dropped > 0)
    throw new UsageError(
      `${source}: the survival run's timeline keeps only its last ${Array.isArray(survival.timeline) ? survival.timeline.length : 0} action(s); the first ${dropped} were left out of the report, so it cannot be replayed or shrunk as that run`,
      { code: 'partial_timeline', hint: 'replay a shorter run: at most 10,000 actions are kept in a report' },
    );
}
