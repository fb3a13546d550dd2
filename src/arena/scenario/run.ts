/**
 * Runs one scenario against an ArenaService and returns its report. The
 * shared run lifecycle (../run/lifecycle.ts) measures, reverts on every exit
 * path and gates; this file supplies what is a scenario's own: its options,
 * the scripted schedule (./schedule.ts) and the report's shape.
 */
import type { Clock } from '../../shared/clock.js';
import { createRandom, randomSeed, type Random } from '../../shared/random.js';
import { RuntimeError, UsageError } from '../../shared/errors.js';
import { MAX_DURATION_MS, formatDuration, tryParseDuration } from '../../shared/duration.js';
import type { TargetObserver } from '../providers.js';
import { isCutShort, type ActionOutcome, type RunEventListener, type ScenarioReport } from '../report.js';
import type { ArenaService } from '../service.js';
import type { GateOn } from '../score.js';
import { runLifecycle } from '../run/lifecycle.js';
import { runSteps } from './schedule.js';
import { assertScenarioTargets } from '../target-names.js';
import type { Scenario } from './types.js';
import type { CallLedgerReader } from '../../protocol/calls.js';

export interface RunScenarioOptions {
  /** the target's observer; defaults to the service's */
  observer?: TargetObserver;
  /** overrides config.seed; a fresh seed (reported) when neither is given */
  seed?: number;
  clock?: Clock;
  random?: Random;
  /** abort → faults reverted, report with status `interrupted` */
  signal?: AbortSignal;
  onEvent?: RunEventListener;
  /** gate; overrides expect.min_score */
  minScore?: number;
  /** what the gate compares: the score (default) or the lower bound of its 95% interval */
  gate?: GateOn;
  /**
   * multiplies every timing the scenario states (delays, warmup, cooldown,
   * timeout, fault durations): 0.1 runs it ten times faster. Recovery
   * deadlines are not scaled: the target heals at its own speed.
   */
  timeScale?: number;
  pollIntervalMs?: number;
  /** overrides config.recovery_deadline (default 10 s) */
  recoveryDeadlineMs?: number;
  /** how often a `snapshot` event is emitted (default DEFAULT_SNAPSHOT_INTERVAL_MS) */
  snapshotIntervalMs?: number;
  /** the strategy in force, copied into the report */
  strategy?: Record<string, unknown>;
  /** the target's call ledger: what `stop_when.spend_above` reads (refused without one) */
  calls?: CallLedgerReader;
  /** where a stop condition's `token_env` is read (default: none set) */
  env?: Record<string, string | undefined>;
}

export async function runScenarioReport(
  service: ArenaService,
  scenario: Scenario,
  options: RunScenarioOptions = {},
): Promise<ScenarioReport> {
  const observer = options.observer ?? service.observer;
  if (!observer)
    throw new RuntimeError('a scenario run needs a target observer to measure the score (pass options.observer)', {
      code: 'no_observer',
    });
  const timeScale = options.timeScale ?? 1;
  if (!(Number.isFinite(timeScale) && timeScale > 0))
    throw new UsageError(`timeScale must be a positive number (got ${timeScale})`);
  const minScore = options.minScore ?? scenario.expect.min_score;
  if (minScore !== undefined && !(Number.isFinite(minScore) && minScore >= 0 && minScore <= 100)) {
    throw new UsageError(`min score must be a number from 0 to 100 (got ${minScore})`);
  }
  assertScaledTimings(scenario, timeScale);
  // before the run starts: an agent, node or edge the target does not have is refused, nothing injected
  await assertScenarioTargets(service.injector, scenario, 'the target');
  const clock = options.clock ?? service.clock;
  const seed = options.seed ?? scenario.config.seed ?? randomSeed();
  const random = options.random ?? createRandom(seed);
  const cfg = scenario.config;
  const scaled = (ms: number) => Math.round(ms * timeScale);

  let outcomes: ActionOutcome[] = [];
  const failedCount = () => outcomes.filter((o) => o.met === false).length;
  const run = await runLifecycle(
    {
      kind: 'scenario',
      name: scenario.name,
      seed,
      service,
      observer,
      clock,
      signal: options.signal,
      onEvent: options.onEvent,
      warmupMs: scaled(cfg.warmup_ms),
      cooldownMs: scaled(cfg.cooldown_ms),
      plannedMs: scaled(cfg.warmup_ms + plannedActionsMs(scenario) + cfg.cooldown_ms),
      timeoutMs: cfg.timeout_ms === undefined ? undefined : scaled(cfg.timeout_ms),
      pollIntervalMs: options.pollIntervalMs,
      recoveryDeadlineMs: options.recoveryDeadlineMs ?? cfg.recovery_deadline_ms,
      snapshotIntervalMs: options.snapshotIntervalMs,
      minScore,
      gate: options.gate,
      failed: () => failedCount() > 0,
      inconclusive: () => noFaultApplied(outcomes),
      holdTimedFaults: true,
      stopWhen: cfg.stop_when,
      calls: options.calls,
      env: options.env,
    },
    async (ctx) => {
      outcomes = await runSteps({
        service,
        scenario,
        clock,
        random,
        signal: ctx.signal,
        timeScale,
        rel: ctx.rel,
        onResult: (_step, o, executed) => ctx.action(o.label, o.result, o.at_ms, executed, o.expectation === 'failure'),
      });
    },
  );

  const failed = failedCount();
  const passed = outcomes.filter((o) => o.met === true).length;
  const report: ScenarioReport = {
    name: scenario.name,
    seed,
    status: run.status,
    verified: failed === 0 && !isCutShort(run.status) && run.error === undefined && !run.stopped_by,
    passed,
    failed,
    results: outcomes,
    score: run.score,
    started_at: run.started_at,
    duration_ms: run.elapsed_ms,
    strategy: options.strategy ?? {},
  };
  if (scenario.description !== undefined) report.description = scenario.description;
  if (scenario.file !== undefined) report.file = scenario.file;
  if (run.gate) report.gate = run.gate;
  if (run.error !== undefined) report.error = run.error;
  if (run.inconclusive_why !== undefined) report.inconclusive_why = run.inconclusive_why;
  // always present, [] when nothing was active: a report reader can tell "none" from "not recorded"
  report.reverted_faults = run.reverted;
  report.window = {
    warmup_ms: scaled(cfg.warmup_ms),
    cooldown_ms: scaled(cfg.cooldown_ms),
    ...(cfg.timeout_ms !== undefined ? { timeout_ms: scaled(cfg.timeout_ms) } : {}),
    ...(cfg.recovery_deadline_ms !== undefined ? { recovery_deadline_ms: cfg.recovery_deadline_ms } : {}),
  };
  if (run.cut.length > 0) report.cut_faults = run.cut;
  if (run.stopped_by) report.stopped_by = run.stopped_by;
  if (run.stop_check_errors) report.stop_check_errors = run.stop_check_errors;
  return report;
}

/**
 * Why a run that applied none of its faults proved nothing: no fault, no resilience tested. Actions that were
 * meant to fail (`expect_failure`) are the scenario's point, not a gap.
 */
export function noFaultApplied(outcomes: readonly ActionOutcome[]): string | undefined {
  if (outcomes.length === 0 || outcomes.some((o) => o.result.success)) return undefined;
  if (outcomes.every((o) => o.expectation === 'failure')) return undefined;
  const first = outcomes.find((o) => o.expectation !== 'failure')!;
  return `none of its ${outcomes.length} fault(s) was applied (first: ${first.label}: ${first.result.error ?? 'failed'})`;
}

/** a time scale above 1 could stretch a valid 24 h timing past what a timer can hold: refuse it up front */
function assertScaledTimings(scenario: Scenario, timeScale: number): void {
  const cfg = scenario.config;
  const timings = [cfg.warmup_ms, cfg.cooldown_ms, cfg.timeout_ms ?? 0, ...scenario.actions.map((a) => a.delay_ms)];
  for (const a of scenario.actions)
    for (const key of ['duration', 'delay']) timings.push(tryParseDuration(a.action.metadata?.[key]) ?? 0);
  const longest = Math.max(...timings) * timeScale;
  if (longest > MAX_DURATION_MS) {
    throw new UsageError(
      `time scale ${timeScale} stretches a timing of ${scenario.name} to ${formatDuration(longest)}, over the 24h limit`,
      { code: 'invalid_time_scale' },
    );
  }
}

/** a progress estimate: delays back to back, or spread over the slots when parallel */
function plannedActionsMs(scenario: Scenario): number {
  const total = scenario.actions.reduce((sum, a) => sum + a.delay_ms, 0);
  return scenario.config.parallel_actions ? Math.ceil(total / scenario.config.max_concurrent) : total;
}
