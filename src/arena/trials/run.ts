/**
 * `arena trials` (DESIGN §14): every task of the target N times with the scenario's faults acting and N
 * times clean (and N times per `--intensity`), interleaved as ./plan.ts says, on one started target;
 * then pass^k, behaviour and cost per task from the answers and the calls the target's proxies saw.
 */
import type { CallRecord } from '../../protocol/calls.js';
import { systemClock, type Clock } from '../../shared/clock.js';
import { UsageError, errorMessage, isArenaError } from '../../shared/errors.js';
import { createRandom, deriveSeed } from '../../shared/random.js';
import type { Target } from '../providers.js';
import { runOnTarget } from '../run/on-target.js';
import type { StopSources } from '../safety/checks.js';
import { usableStopSources } from '../safety/sources.js';
import type { StopWhen } from '../safety/types.js';
import { startStopWatch, type StopWatch } from '../safety/watch.js';
import type { Scenario } from '../scenario/types.js';
import type { ArenaService } from '../service.js';
import { assertSupported } from '../support.js';
import { assertKnownTargets, targetNames, unknownTargetProblems } from '../target-names.js';
import { attributeCalls, type TrialWindow } from './attribute.js';
import { applyBlockFaults, assertIntensityApplies, blockActions, endBlockFaults, waitHealthy } from './faults.js';
import { evaluateGates, type TrialGates } from './gates.js';
import { watchMarkers } from './markers.js';
import { armsFor, planBlocks } from './plan.js';
import type { TrialsPlan, TrialsReport } from './report.js';
import { summarise, type TrialRecord } from './summary.js';

export interface RunTrialsOptions {
  /** trials per task per arm */
  n: number;
  ks: readonly number[];
  seed: number;
  scenario?: Scenario | undefined;
  intensities?: readonly number[] | undefined;
  gates?: TrialGates | undefined;
  clock?: Clock | undefined;
  /** abort → the block's faults reverted, report with status `interrupted` (`stopped` for a StoppedError) */
  signal?: AbortSignal | undefined;
  /**
   * `--stop-when`: checked from the start (a window needs its past), able to trip from the first fault
   * that lands; a trip ends the trials, reverts the block's faults and fails the run with `stopped_by`
   */
  stopWhen?: StopWhen | undefined;
  /** where a prometheus condition's `token_env` is read */
  env?: Record<string, string | undefined> | undefined;
  /** replaces the stop conditions' sources (tests) */
  stopSources?: StopSources | undefined;
  /** how long the target may take to be healthy again after a faulted block (default 10 s) */
  recoveryDeadlineMs?: number | undefined;
  /** told once the blocks are planned, before the first trial (a live view sizes itself from it) */
  onStart?: ((plan: TrialsPlan) => void) | undefined;
  onTrial?: ((trial: TrialRecord, done: number, total: number) => void) | undefined;
}

const DEFAULT_RECOVERY_DEADLINE_MS = 10_000;
export const MAX_TRIALS = 10_000;

export function checkTrialsOptions(options: RunTrialsOptions): void {
  const { n, ks } = options;
  if (!Number.isInteger(n) || n < 1 || n > MAX_TRIALS)
    throw new UsageError(`--trials must be an integer from 1 to ${MAX_TRIALS} (got ${n})`, { code: 'invalid_trials' });
  if (ks.length === 0 || ks.some((k) => !Number.isInteger(k) || k < 1 || k > n))
    throw new UsageError(`--k takes integers from 1 to --trials (${n}); got ${ks.join(',')}`, {
      code: 'invalid_trials',
    });
  for (const i of options.intensities ?? [])
    if (!(Number.isFinite(i) && i >= 0 && i <= 1))
      throw new UsageError(`--intensity takes probabilities from 0 to 1 (got ${i})`, { code: 'invalid_trials' });
  for (const gate of options.gates?.minPassK ?? [])
    if (gate.k > n)
      throw new UsageError(`--min-pass-k ${gate.k}:${gate.value}: k is over --trials (${n})`, {
        code: 'invalid_trials',
      });
  if (options.gates?.maxCostRatio !== undefined && !options.scenario)
    throw new UsageError('--max-cost-ratio compares faulted and clean trials: give --scenario', {
      code: 'invalid_trials',
    });
  assertIntensityApplies(options.scenario, options.intensities ?? []);
}

/** a W3C traceparent whose trace id belongs to this trial alone (from the seed: a replay sends the same) */
function traceFor(seed: number, trial: string): { trace_id: string; traceparent: string } {
  const word = (label: string) => deriveSeed(seed, `${trial}#${label}`).toString(16).padStart(8, '0');
  const trace_id = `${word('a')}${word('b')}${word('c')}${word('d')}`;
  return { trace_id, traceparent: `00-${trace_id}-${word('e')}${word('f')}-01` };
}

export async function runTrialsOnTarget(target: Target, options: RunTrialsOptions): Promise<TrialsReport> {
  checkTrialsOptions(options);
  // known before the target starts: a fleet is not brought up to learn it has nothing to try
  if (!target.trials || target.trials.tasks.length === 0)
    throw new UsageError(`target ${target.name} lists no tasks: add tasks: to its target file (DESIGN §14)`, {
      code: 'no_tasks',
    });
  const clock = options.clock ?? systemClock;
  const { scenario, n, ks, seed } = options;
  const intensities = options.intensities ?? [];
  const random = createRandom(seed);
  const startedAt = clock.now();
  return runOnTarget<TrialsReport>(
    target,
    { clock },
    {
      check() {
        if (options.gates?.maxCostRatio !== undefined && !target.calls)
          throw new UsageError(
            `--max-cost-ratio: target ${target.name} (${target.kind}) records no LLM calls, so cost is not measured`,
            { code: 'cost_not_measured' },
          );
        if (scenario) {
          assertSupported(
            target,
            scenario.actions.map((a) => a.action.type),
            `scenario ${scenario.name}`,
            scenario.actions.map((a) => a.action),
          );
          // as each faulted block applies them (an --intensity sets a probability the target may not take):
          // refused now, not block by block while the arm runs as if faulted
          for (const arm of armsFor(true, intensities).filter((a) => a.intensity !== undefined)) {
            const actions = blockActions(scenario, arm);
            assertSupported(
              target,
              actions.map((a) => a.type),
              `scenario ${scenario.name} at --intensity ${arm.intensity}`,
              actions,
            );
          }
        }
      },
      async run(service) {
        if (scenario) {
          const names = await targetNames(service.injector);
          assertKnownTargets(
            unknownTargetProblems(
              scenario.actions.map((step, i) => ({ path: `actions[${i}].action`, action: step.action })),
              names,
            ),
            `scenario ${scenario.name}`,
            target.name,
          );
        }
        const stopSources = options.stopWhen
          ? await usableStopSources(options.stopWhen, {
              runName: 'trials',
              observer: target.observer,
              calls: target.calls,
              env: options.env,
              sources: options.stopSources,
              agents: () => service.injector.agents(),
            })
          : undefined;
        // one signal for the loop: the caller's abort or a tripped stop condition
        const ac = new AbortController();
        const onAbort = () => ac.abort(options.signal?.reason);
        if (options.signal?.aborted) onAbort();
        else options.signal?.addEventListener('abort', onAbort, { once: true });
        const signal = ac.signal;
        const watch: StopWatch | undefined =
          options.stopWhen && stopSources
            ? startStopWatch({
                stopWhen: options.stopWhen,
                sources: stopSources,
                clock,
                rel: () => Math.max(0, Math.round(clock.now() - startedAt)),
                onTrip: (stoppedBy) => ac.abort(new Error(`stopped by ${stoppedBy.condition}`)),
              })
            : undefined;
        try {
          return await runBlocks(service, signal, watch);
        } finally {
          watch?.stop();
          options.signal?.removeEventListener('abort', onAbort);
        }
      },
    },
  );

  /** the blocks in order until done, interrupted or stopped (`signal`), then the summary */
  async function runBlocks(
    service: ArenaService,
    signal: AbortSignal,
    watch: StopWatch | undefined,
  ): Promise<TrialsReport> {
    const tasks = target.trials!;
    const deadline = options.recoveryDeadlineMs ?? DEFAULT_RECOVERY_DEADLINE_MS;
    const arms = armsFor(scenario !== undefined, intensities);
    const blocks = planBlocks(
      random.fork('trials.plan'),
      n,
      arms,
      tasks.tasks.map((t) => t.id),
    );
    const total = blocks.reduce((s, b) => s + b.tasks.length, 0);
    options.onStart?.({
      n,
      ks: [...ks],
      seed,
      scenario: scenario?.name ?? null,
      tasks: tasks.tasks.map((t) => t.id),
      arms: arms.map((a) => ({ name: a.name, ...(a.intensity !== undefined ? { intensity: a.intensity } : {}) })),
      total,
    });
    const records: CallRecord[] = [];
    let since = target.calls?.calls().next ?? 0;
    let dropped = 0;
    const readCalls = () => {
      if (!target.calls) return;
      const read = target.calls.calls(since);
      records.push(...read.records);
      dropped += read.dropped;
      since = read.next;
    };
    const trials: TrialRecord[] = [];
    const faults = { applied: 0, failed: 0 } as TrialsReport['trials']['faults'];
    let interrupted = false;
    // undefined when the target keeps no marker book: markers are then null, never 0
    const markers = target.markers ? watchMarkers(() => target.markers!()) : undefined;
    await waitHealthy(target.observer, clock, deadline, signal);
    for (const block of blocks) {
      if (signal.aborted) {
        interrupted = true;
        break;
      }
      try {
        if (block.arm.faulted) {
          const results = await applyBlockFaults(
            service,
            blockActions(scenario!, block.arm),
            random.fork(`trials.target.${block.round}.${block.arm.name}`),
            clock,
          );
          for (const r of results) {
            if (r.success) {
              faults.applied++;
              watch?.arm();
            } else {
              faults.failed++;
              faults.first_error ??= `${r.action.type} ${r.action.target_id}: ${r.error ?? 'failed'}`;
            }
          }
        }
        for (const taskId of block.tasks) {
          if (signal.aborted) break;
          const id = `r${block.round}.${block.arm.name}.${taskId}`;
          const { trace_id, traceparent } = traceFor(seed, id);
          const started_ms = clock.wallNow().getTime();
          markers?.begin();
          const answer = await tasks
            .run(taskId, { trial: id, traceparent, signal })
            .catch((err: unknown) => ({ passed: false, detail: errorMessage(err) }));
          // a try cut short by Ctrl-C is no failure of the agent's: it is left out, not counted
          if (signal.aborted) break;
          const trial: TrialRecord = {
            id,
            trace_id,
            task: taskId,
            arm: block.arm.name,
            round: block.round,
            started_ms,
            ended_ms: clock.wallNow().getTime(),
            passed: answer.passed,
            ...(answer.detail !== undefined ? { detail: answer.detail } : {}),
            ...(markers ? { markers: markers.end() } : {}),
          };
          trials.push(trial);
          options.onTrial?.(trial, trials.length, total);
        }
      } finally {
        if (block.arm.faulted) await endBlockFaults(service, target.observer, clock, deadline, signal);
      }
      readCalls();
    }
    readCalls();
    if (signal.aborted) interrupted = true;
    const windows: TrialWindow[] = trials;
    const attribution = target.calls ? attributeCalls(records, windows) : undefined;
    const body = summarise({
      n,
      ks,
      seed,
      scenario: scenario?.name ?? null,
      tasks: tasks.tasks,
      sideEffects: tasks.sideEffects,
      prices: tasks.prices,
      trials,
      arms,
      attribution,
      dropped: target.calls ? dropped : null,
      unattributedMarkers: markers ? markers.unattributed() : null,
      faults,
      duration_ms: Math.round(clock.now() - startedAt),
    });
    const report: TrialsReport = { schema_version: 1, status: 'passed', trials: body };
    if (options.gates) {
      report.gates = evaluateGates(body, options.gates);
      if (report.gates.some((g) => !g.passed)) report.status = 'failed';
    }
    if (scenario && faults.applied === 0) {
      report.status = 'inconclusive';
      report.error = `no fault of scenario ${scenario.name} was applied (first: ${faults.first_error ?? 'none'}): the faulted trials ran clean`;
    }
    // the watch is stopped before the verdict: a trip after the last block ends nothing
    watch?.stop();
    const stoppedBy = watch?.stoppedBy();
    if (stoppedBy) {
      // the system was being hurt: whatever the trials say, the verdict is failed
      report.status = 'failed';
      report.stopped_by = stoppedBy;
      report.error = `stopped early by ${stoppedBy.condition}: ${stoppedBy.reason}; faults reverted, partial trials reported`;
    } else if (interrupted) report.status = isArenaError(options.signal?.reason, 'stopped') ? 'stopped' : 'interrupted';
    return report;
  }
}
