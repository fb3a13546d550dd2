import { randomUUID } from 'node:crypto';
import { systemClock, type Clock } from '../shared/clock.js';
import { errorMessage } from '../shared/errors.js';
import type { AgentRegistry } from './registry.js';
import {
  RECOVERY_STRATEGY,
  STEP_STATUS,
  WORKFLOW_STATUS,
  type StepAgent,
  type StepDefinition,
  type StepResult,
  type WorkflowDefinition,
  type WorkflowEvent,
  type WorkflowRunResult,
  type WorkflowStatus,
} from './types.js';
import { assertValidWorkflow } from './validate.js';

export interface ExecuteWorkflowOptions {
  registry: AgentRegistry;
  input?: unknown;
  /** aborting it cancels the run: running steps are aborted, status `cancelled` */
  signal?: AbortSignal;
  clock?: Clock;
  /** upper bound on concurrently running steps; the lower of this and the definition's `max_parallel` wins */
  maxParallel?: number;
  /** called synchronously as things happen; a throwing listener does not disturb the run */
  onEvent?: (event: WorkflowEvent) => void;
  executionId?: string;
  /** timeout for steps that set none (default: none) */
  defaultStepTimeoutMs?: number;
  /** retries for steps that set none under `retry`/`replace_node` (default 1) */
  defaultRetries?: number;
  /** pause between attempts (default 0) */
  retryBackoffMs?: number;
}

export const DEFAULT_MAX_PARALLEL = 8;

/** an event without what every event of a run shares (its ids and time), which emit adds */
type Body<E> = E extends WorkflowEvent ? Omit<E, 'execution_id' | 'workflow_id' | 'at'> : never;
type WorkflowEventBody = Body<WorkflowEvent>;

/** Thrown into a step's signal when its attempt exceeds `timeout_ms`. */
export class StepTimeoutError extends Error {
  constructor(
    readonly stepId: string,
    readonly timeoutMs: number,
  ) {
    super(`step '${stepId}' timed out after ${timeoutMs} ms`);
    this.name = 'StepTimeoutError';
  }
}

interface StepState {
  def: StepDefinition;
  result: StepResult;
  agent?: StepAgent;
  controller?: AbortController;
  startedAt?: number;
}

/**
 * Runs one workflow: steps in dependency order, independent steps in parallel
 * (bounded), each attempt under its timeout, failures handled by the recovery
 * strategy. Dependents of a failed step are skipped. An invalid definition
 * throws a UsageError listing every problem; a failing run resolves with
 * status `failed` (callers test `status`, never messages).
 */
export async function executeWorkflow(
  definition: WorkflowDefinition,
  options: ExecuteWorkflowOptions,
): Promise<WorkflowRunResult> {
  const def = assertValidWorkflow(
    definition,
    { registry: options.registry },
    definition?.id ? `workflow '${definition.id}'` : undefined,
  );
  const clock = options.clock ?? systemClock;
  const registry = options.registry;
  const recovery = def.recovery ?? RECOVERY_STRATEGY.retry;
  const caps = [options.maxParallel, def.max_parallel].filter((n): n is number => typeof n === 'number');
  const limit = caps.length > 0 ? Math.max(1, Math.min(...caps)) : DEFAULT_MAX_PARALLEL;
  const executionId = options.executionId ?? randomUUID();
  const { onEvent } = options;
  // the event is built only for a listener: the embedded runtime's workload has none, and a timestamp
  // and an object per step event were a share of its garbage
  const emit = (event: WorkflowEventBody) => {
    if (!onEvent) return;
    try {
      onEvent({
        execution_id: executionId,
        workflow_id: def.id,
        at: clock.wallNow().toISOString(),
        ...event,
      } as WorkflowEvent);
    } catch {
      // a broken listener must not break the run
    }
  };

  const states = new Map<string, StepState>();
  for (const step of def.steps) {
    states.set(step.id, {
      def: step,
      result: {
        step_id: step.id,
        agent_type: step.agent_type,
        status: STEP_STATUS.pending,
        attempts: 0,
        replacements: 0,
        duration_ms: 0,
      },
    });
  }
  const dependents = new Map<string, string[]>();
  for (const step of def.steps)
    for (const dep of step.depends_on ?? []) dependents.set(dep, [...(dependents.get(dep) ?? []), step.id]);

  const startedAtWall = clock.wallNow().toISOString();
  const t0 = clock.now();
  let running = 0;
  // set once the run must stop early (cancel, fail-fast, workflow timeout); decides the final status
  let halt: { status: WorkflowStatus; error: string } | undefined;
  let firstFailure: string | undefined;
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));

  const skip = (id: string, reason: string) => {
    const st = states.get(id)!;
    if (st.result.status !== STEP_STATUS.pending) return;
    st.result.status = STEP_STATUS.skipped;
    st.result.error = reason;
    emit({ type: 'step.skipped', step_id: id, reason });
    for (const d of dependents.get(id) ?? []) skip(d, `dependency '${id}' was skipped`);
  };

  const stopAll = (status: WorkflowStatus, error: string) => {
    if (halt) return;
    halt = { status, error };
    for (const st of states.values()) {
      if (st.result.status === STEP_STATUS.pending) skip(st.def.id, error);
      else if (st.result.status === STEP_STATUS.running) st.controller?.abort(new Error(error));
    }
    pump();
  };

  const pump = () => {
    if (!halt) {
      for (const st of states.values()) {
        if (running >= limit) break;
        if (st.result.status !== STEP_STATUS.pending) continue;
        const deps = st.def.depends_on ?? [];
        if (deps.every((d) => states.get(d)!.result.status === STEP_STATUS.completed)) {
          running++;
          st.result.status = STEP_STATUS.running;
          void runStep(st).finally(() => {
            running--;
            pump();
          });
        }
      }
    }
    if (running === 0) {
      for (const st of states.values())
        if (st.result.status === STEP_STATUS.pending) skip(st.def.id, 'never became runnable');
      finish();
    }
  };

  const runStep = async (st: StepState) => {
    const { def: step, result } = st;
    const retries = recovery === RECOVERY_STRATEGY.fail_fast ? 0 : (step.retries ?? options.defaultRetries ?? 1);
    const timeoutMs = step.timeout_ms ?? options.defaultStepTimeoutMs;
    st.startedAt = clock.now();
    result.started_at = clock.wallNow().toISOString();
    const inputs: Record<string, unknown> = {};
    for (const d of step.depends_on ?? []) inputs[d] = states.get(d)!.result.output;

    for (let attempt = 1; ; attempt++) {
      result.attempts = attempt;
      emit({ type: 'step.started', step_id: step.id, agent_type: step.agent_type, attempt });
      try {
        st.agent ??= registry.create(step);
        const output = await runAttempt(st, attempt, inputs, timeoutMs);
        result.status = STEP_STATUS.completed;
        result.output = output;
        result.duration_ms = clock.now() - st.startedAt;
        emit({ type: 'step.completed', step_id: step.id, output, attempts: attempt, duration_ms: result.duration_ms });
        return;
      } catch (err) {
        const message = errorMessage(err);
        const willRetry = !halt && attempt <= retries;
        emit({ type: 'step.failed', step_id: step.id, error: message, attempt, will_retry: willRetry });
        if (!willRetry) {
          result.status = STEP_STATUS.failed;
          result.error = message;
          result.duration_ms = clock.now() - st.startedAt;
          if (!halt) {
            firstFailure ??= `step '${step.id}' failed: ${message}`;
            for (const d of dependents.get(step.id) ?? []) skip(d, `dependency '${step.id}' failed`);
            if (recovery === RECOVERY_STRATEGY.fail_fast)
              stopAll(WORKFLOW_STATUS.failed, `fail_fast: step '${step.id}' failed: ${message}`);
          }
          return;
        }
        if (recovery === RECOVERY_STRATEGY.replace_node) {
          st.agent = undefined; // the next attempt gets a fresh agent from the factory
          result.replacements++;
        }
        if (options.retryBackoffMs) {
          try {
            await clock.sleep(options.retryBackoffMs, options.signal);
          } catch {
            // cancelled while backing off; the loop sees `halt` on the next attempt
          }
        }
      }
    }
  };

  const runAttempt = (
    st: StepState,
    attempt: number,
    inputs: Record<string, unknown>,
    timeoutMs?: number,
  ): Promise<unknown> => {
    const controller = new AbortController();
    st.controller = controller;
    if (halt) controller.abort(new Error(halt.error));
    const timer = timeoutMs
      ? clock.setTimer(timeoutMs, () => controller.abort(new StepTimeoutError(st.def.id, timeoutMs)))
      : undefined;
    // an agent that ignores its signal must not hang the run: race it against the abort
    const aborted = new Promise<never>((_, reject) => {
      if (controller.signal.aborted) reject(controller.signal.reason);
      controller.signal.addEventListener('abort', () => reject(controller.signal.reason), { once: true });
    });
    const work = Promise.resolve().then(() =>
      st.agent!.execute({ step: st.def, workflowInput: options.input, inputs, signal: controller.signal, attempt }),
    );
    return Promise.race([work, aborted]).finally(() => {
      timer?.cancel();
      work.catch(() => undefined);
      aborted.catch(() => undefined);
    });
  };

  emit({ type: 'workflow.started', input: options.input });
  const onAbort = () =>
    stopAll(WORKFLOW_STATUS.cancelled, `cancelled: ${errorMessage(options.signal?.reason ?? 'aborted')}`);
  if (options.signal?.aborted) onAbort();
  else options.signal?.addEventListener('abort', onAbort, { once: true });
  const runTimer = def.timeout_ms
    ? clock.setTimer(def.timeout_ms, () =>
        stopAll(WORKFLOW_STATUS.failed, `workflow '${def.id}' timed out after ${def.timeout_ms} ms`),
      )
    : undefined;

  pump();
  await done;
  runTimer?.cancel();
  options.signal?.removeEventListener('abort', onAbort);

  const steps = def.steps.map((s) => states.get(s.id)!.result);
  const duration_ms = clock.now() - t0;
  const status: WorkflowStatus = halt?.status ?? (firstFailure ? WORKFLOW_STATUS.failed : WORKFLOW_STATUS.completed);
  const error = halt?.error ?? firstFailure;
  const output = status === WORKFLOW_STATUS.completed ? workflowOutput(def, states) : null;
  if (status === WORKFLOW_STATUS.completed) emit({ type: 'workflow.completed', output, duration_ms });
  else if (status === WORKFLOW_STATUS.cancelled) emit({ type: 'workflow.cancelled', error: error!, duration_ms });
  else emit({ type: 'workflow.failed', error: error!, duration_ms });
  return {
    execution_id: executionId,
    workflow_id: def.id,
    status,
    output,
    steps,
    ...(error !== undefined ? { error } : {}),
    started_at: startedAtWall,
    duration_ms,
  };
}

function workflowOutput(def: WorkflowDefinition, states: Map<string, StepState>): unknown {
  if (def.output_step) return states.get(def.output_step)!.result.output;
  const hasDependents = new Set(def.steps.flatMap((s) => s.depends_on ?? []));
  const sinks = def.steps.filter((s) => !hasDependents.has(s.id));
  if (sinks.length === 1) return states.get(sinks[0].id)!.result.output;
  return Object.fromEntries(sinks.map((s) => [s.id, states.get(s.id)!.result.output]));
}
