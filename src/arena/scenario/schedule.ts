/**
 * Runs a scenario's actions: per-action delay, depends_on, and at most
 * `max_concurrent` at once when parallel (one at a time otherwise). A slot is
 * held from the start of an action's delay until its injection returns, so
 * the limit is observable. Dependents of an action that failed (or missed its
 * expectation) are skipped, as is everything after a failure under
 * stop_on_error.
 */
import type { Clock } from '../../shared/clock.js';
import type { Random } from '../../shared/random.js';
import { parseDuration } from '../../shared/duration.js';
import { errorMessage } from '../../shared/errors.js';
import { createAction } from '../actions.js';
import type { Action, Result } from '../action.js';
import type { ActionOutcome, Expectation } from '../report.js';
import type { ArenaService } from '../service.js';
import type { Scenario, ScenarioStep } from './types.js';
import { maxAffectedRefusal } from '../safety/blast-radius.js';

/** `target_id: random` picks a running worker with the run's seeded random source */
export const RANDOM_TARGET = 'random';

export interface ScheduleContext {
  service: ArenaService;
  scenario: Scenario;
  clock: Clock;
  random: Random;
  signal: AbortSignal;
  timeScale: number;
  /** ms since the run started */
  rel(): number;
  /** `executed` is false for a skipped action (nothing was injected) */
  onResult(step: ScenarioStep, outcome: ActionOutcome, executed: boolean): void;
}

export function expectationOf(step: ScenarioStep): Expectation {
  if (step.expect_success === true || step.expect_failure === false) return 'success';
  if (step.expect_failure === true || step.expect_success === false) return 'failure';
  return 'none';
}

/** Runs every action it can; resolves with outcomes in file order (skipped ones included, aborted ones left out). */
export async function runSteps(ctx: ScheduleContext): Promise<ActionOutcome[]> {
  const steps = ctx.scenario.actions;
  const { parallel_actions, max_concurrent, stop_on_error } = ctx.scenario.config;
  const limit = parallel_actions ? max_concurrent : 1;
  const byLabel = new Map(steps.map((s, i) => [s.label, i]));
  const outcomes: Array<ActionOutcome | undefined> = steps.map(() => undefined);
  const started = new Set<number>();
  let running = 0;
  let stoppedBy: string | undefined;

  // max_affected: the count and the injection it allows happen one at a time, so two faults cannot both see room for one
  let gate: Promise<unknown> = Promise.resolve();
  const serial = <T>(fn: () => Promise<T>): Promise<T> => {
    const next = gate.then(fn, fn);
    gate = next.catch(() => undefined);
    return next;
  };

  const isOk = (o: ActionOutcome) => o.met !== false && (o.result.success || o.expectation === 'failure');

  await new Promise<void>((resolve) => {
    const pump = () => {
      let progressed = true;
      while (progressed) {
        progressed = false;
        if (ctx.signal.aborted || stoppedBy !== undefined) break;
        for (let i = 0; i < steps.length && running < limit; i++) {
          if (started.has(i)) continue;
          const step = steps[i]!;
          const deps = step.depends_on.map((d) => outcomes[byLabel.get(d)!]);
          if (deps.some((d) => d === undefined)) {
            // sequential mode keeps file order among ready actions: wait for this one
            if (!parallel_actions) break;
            continue;
          }
          started.add(i);
          const failedDep = step.depends_on.find((d) => !isOk(outcomes[byLabel.get(d)!]!));
          if (failedDep !== undefined) {
            outcomes[i] = skipped(ctx, step, `skipped: depends on "${failedDep}", which failed`);
            ctx.onResult(step, outcomes[i]!, false);
            progressed = true;
            continue;
          }
          running += 1;
          void runOne(ctx, step, serial).then((outcome) => {
            running -= 1;
            if (outcome) {
              outcomes[i] = outcome;
              ctx.onResult(step, outcome, outcome.result.skipped !== true);
              if (stop_on_error && !isOk(outcome) && stoppedBy === undefined) stoppedBy = step.label;
            }
            pump();
          });
          if (!parallel_actions) break;
        }
      }
      if (running === 0) resolve();
    };
    pump();
  });

  if (stoppedBy !== undefined && !ctx.signal.aborted) {
    steps.forEach((step, i) => {
      if (outcomes[i] === undefined) {
        outcomes[i] = skipped(ctx, step, `skipped: stop_on_error after "${stoppedBy}" failed`);
        ctx.onResult(step, outcomes[i]!, false);
      }
    });
  }
  return outcomes.filter((o): o is ActionOutcome => o !== undefined);
}

async function runOne(
  ctx: ScheduleContext,
  step: ScenarioStep,
  serial: <T>(fn: () => Promise<T>) => Promise<T>,
): Promise<ActionOutcome | undefined> {
  const delay = Math.round(step.delay_ms * ctx.timeScale);
  const planned = ctx.rel() + delay;
  try {
    await ctx.clock.sleep(delay, ctx.signal);
  } catch {
    return undefined; // aborted before it ran: nothing was injected
  }
  if (ctx.signal.aborted) return undefined;
  const limit = ctx.scenario.config.max_affected;
  const inject = async (): Promise<Result> => {
    const action = buildAction(ctx, step, await resolveTarget(ctx, step));
    if (limit !== undefined) {
      // a count that cannot be made is a limit that cannot be kept: the fault is not applied
      const refusal = await Promise.all([ctx.service.injector.agents(), ctx.service.injector.activeFaults()]).then(
        ([agents, active]) => maxAffectedRefusal(limit, action, agents, active),
        (err: unknown) =>
          `skipped: max_affected cannot be kept: the active faults could not be counted (${errorMessage(err)})`,
      );
      if (refusal !== undefined) return { success: false, skipped: true, action, error: refusal, duration_ms: 0 };
    }
    // a step meant to fail is told so, so the flight recorder does not file its failure as a problem
    return ctx.service.execute(action, { expectFailure: expectationOf(step) === 'failure' });
  };
  const result = limit === undefined ? await inject() : await serial(inject);
  return outcomeOf(step, result, planned, ctx.rel());
}

function outcomeOf(step: ScenarioStep, result: Result, planned: number, at: number): ActionOutcome {
  const expectation = expectationOf(step);
  const met = expectation === 'none' ? null : result.success === (expectation === 'success');
  return { label: step.label, result, expectation, met, planned_at_ms: planned, at_ms: at };
}

function skipped(ctx: ScheduleContext, step: ScenarioStep, why: string): ActionOutcome {
  const result: Result = {
    success: false,
    action: buildAction(ctx, step, step.action.target_id ?? ''),
    error: why,
    duration_ms: 0,
  };
  const expectation = expectationOf(step);
  const at = ctx.rel();
  return {
    label: step.label,
    result,
    expectation,
    met: expectation === 'none' ? null : false,
    planned_at_ms: at,
    at_ms: at,
  };
}

/** `random` picks a running worker at the moment the action runs */
async function resolveTarget(ctx: ScheduleContext, step: ScenarioStep): Promise<string> {
  const target = step.action.target_id ?? '';
  if (target !== RANDOM_TARGET) return target;
  const workers = (await ctx.service.injector.agents().catch(() => []))
    .filter((a) => (a.role === 'leader' || a.role === 'worker') && a.status === 'running')
    .map((a) => a.id)
    .sort();
  // no running worker: keep the literal so the injection fails honestly
  return workers.length > 0 ? ctx.random.pick(workers) : target;
}

function buildAction(ctx: ScheduleContext, step: ScenarioStep, target: string): Action {
  const spec = step.action;
  const options: Parameters<typeof createAction>[2] = { created_at: ctx.clock.wallNow().toISOString() };
  if (spec.source_id !== undefined) options.source_id = spec.source_id;
  if (spec.metadata !== undefined) options.metadata = scaleMetadata(spec.metadata, ctx.timeScale);
  return createAction(spec.type, target, options);
}

function scaleMetadata(md: Record<string, unknown>, scale: number): Record<string, unknown> {
  if (scale === 1) return { ...md };
  const out = { ...md };
  for (const key of ['duration', 'delay']) {
    if (out[key] !== undefined) out[key] = Math.max(1, Math.round(parseDuration(out[key]) * scale));
  }
  return out;
}
