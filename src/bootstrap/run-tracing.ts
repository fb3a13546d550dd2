/**
 * A run's events as OpenTelemetry spans (DESIGN §17): one span per run, a
 * child span per fault with the `chaos.*` attributes, and a `chaos.recovery`
 * span event when the target is healthy again. A disruptive fault's span
 * lasts from its injection to its recovery (or the run's end), so a trace
 * viewer shows how long each fault hurt; any other fault's span is its
 * injection. It is a RunEventListener, the same contract every other
 * consumer of a run reads: the arena knows nothing of tracing.
 */
import { randomUUID } from 'node:crypto';
import type { Attributes, Context, Span } from '@opentelemetry/api';
import type { IncomingHttpHeaders } from 'node:http';
import type { Result } from '../arena/action.js';
import { healthScopeFor, faultTarget } from '../arena/measure/index.js';
import type { RunEvent, RunEventListener } from '../arena/report.js';
import type { Tracing } from '../shared/otlp/tracing.js';

/** Attribute names, listed once (docs/guides/observability.md names them too). */
export const CHAOS = {
  runId: 'chaos.run.id',
  runKind: 'chaos.run.kind',
  runName: 'chaos.run.name',
  runSeed: 'chaos.run.seed',
  runStatus: 'chaos.run.status',
  runScore: 'chaos.run.score',
  faultType: 'chaos.fault.type',
  faultTarget: 'chaos.fault.target',
  faultId: 'chaos.fault.id',
  faultLabel: 'chaos.fault.label',
  faultOutcome: 'chaos.fault.outcome',
  faultSuccess: 'chaos.fault.success',
  faultError: 'chaos.fault.error',
  /** `api`: injected on its own through `arena serve`'s fault routes, not by a run */
  faultSource: 'chaos.fault.source',
  expectFailure: 'chaos.fault.expect_failure',
  recovered: 'chaos.recovered',
  recoveryMs: 'chaos.recovery_ms',
  phase: 'chaos.phase',
} as const;

interface OpenRun {
  span: Span;
  id: string;
  /** fault spans waiting for their recovery, by action id */
  faults: Map<string, Span>;
}

export function traceRuns(tracing: Pick<Tracing, 'api' | 'tracer'>, now: () => number = Date.now): RunEventListener {
  const { api, tracer } = tracing;
  let run: OpenRun | undefined;

  const endRun = (status: string, score: number | null | undefined, at: number) => {
    if (!run) return;
    for (const span of run.faults.values()) {
      span.setAttribute(CHAOS.recovered, false);
      span.end(at);
    }
    run.span.setAttribute(CHAOS.runStatus, status);
    if (typeof score === 'number') run.span.setAttribute(CHAOS.runScore, score);
    // the run could not do its job (a target error, a failed revert); a failed gate is a verdict, not an error
    if (status === 'error') run.span.setStatus({ code: api.SpanStatusCode.ERROR, message: 'the run hit an error' });
    run.span.end(at);
    run = undefined;
  };

  return (event: RunEvent) => {
    const at = now();
    switch (event.type) {
      case 'run.started': {
        endRun('error', undefined, at); // a run that never said it finished
        const id = randomUUID();
        const span = tracer.startSpan(`chaos ${event.kind}`, {
          kind: api.SpanKind.INTERNAL,
          startTime: at,
          attributes: {
            [CHAOS.runId]: id,
            [CHAOS.runKind]: event.kind,
            [CHAOS.runName]: event.name,
            [CHAOS.runSeed]: event.seed,
          },
        });
        run = { span, id, faults: new Map() };
        return;
      }
      case 'phase':
        run?.span.addEvent('chaos.phase', { [CHAOS.phase]: event.phase }, at);
        return;
      case 'action': {
        if (!run) return;
        const { result } = event;
        const span = startFaultSpan(tracing, result, at, api.trace.setSpan(api.ROOT_CONTEXT, run.span), {
          [CHAOS.runId]: run.id,
          [CHAOS.faultLabel]: event.label,
          ...(event.expect_failure ? { [CHAOS.expectFailure]: true } : {}),
        });
        // the measurement watches a disruptive fault until it recovers: its span waits for that
        if (result.success && healthScopeFor(result) !== undefined) run.faults.set(result.action.id, span);
        else span.end(at);
        return;
      }
      case 'recovery': {
        const { recovery } = event;
        const span = run?.faults.get(recovery.action_id);
        if (!run || !span) return;
        run.faults.delete(recovery.action_id);
        const attrs = {
          [CHAOS.recovered]: recovery.recovered,
          ...(recovery.recovery_ms !== undefined ? { [CHAOS.recoveryMs]: recovery.recovery_ms } : {}),
        };
        span.addEvent('chaos.recovery', attrs, at);
        span.setAttributes(attrs);
        span.end(at);
        run.span.addEvent('chaos.recovery', { ...attrs, [CHAOS.faultId]: recovery.action_id }, at);
        return;
      }
      case 'fault.reverted':
        run?.span.addEvent(
          'chaos.fault.reverted',
          { [CHAOS.faultId]: event.fault.id, [CHAOS.faultType]: event.fault.kind },
          at,
        );
        return;
      case 'snapshot':
        return;
      case 'run.finished':
        endRun(event.status, event.score?.score, at);
        return;
      default: {
        const never: never = event;
        return never;
      }
    }
  };
}

/** a fault's span with the `chaos.fault.*` attributes, started when it was (the result comes once it was applied) */
function startFaultSpan(
  { api, tracer }: Pick<Tracing, 'api' | 'tracer'>,
  result: Result,
  at: number,
  parent: Context,
  extra: Attributes,
): Span {
  const faultId = result.metadata?.fault_id;
  const span = tracer.startSpan(
    `chaos.fault ${result.action.type}`,
    {
      kind: api.SpanKind.INTERNAL,
      startTime: at - result.duration_ms,
      attributes: {
        [CHAOS.faultType]: result.action.type,
        [CHAOS.faultTarget]: faultTarget(result),
        [CHAOS.faultId]: typeof faultId === 'string' ? faultId : result.action.id,
        [CHAOS.faultOutcome]: result.success ? 'applied' : 'refused',
        [CHAOS.faultSuccess]: result.success,
        ...(result.error !== undefined ? { [CHAOS.faultError]: result.error } : {}),
        ...extra,
      },
    },
    parent,
  );
  if (!result.success) span.setStatus({ code: api.SpanStatusCode.ERROR, message: result.error ?? 'refused' });
  return span;
}

/**
 * A span for each fault injected on its own through `arena serve`'s fault routes (not by a run): the
 * same `chaos.fault.*` attributes as a run's, a child of the request's `traceparent` when the caller
 * sent one (so a test harness's own trace shows the faults it injected), else a trace of its own. It
 * lasts the injection: no run measures a recovery for it.
 */
export function traceFaults(
  tracing: Pick<Tracing, 'api' | 'tracer' | 'propagator'>,
  now: () => number = Date.now,
): (result: Result, headers: IncomingHttpHeaders) => void {
  const { api, propagator } = tracing;
  return (result, headers) => {
    const at = now();
    const parent = propagator.extract(api.ROOT_CONTEXT, headers, {
      get: (carrier, key) => carrier[key],
      keys: (carrier) => Object.keys(carrier),
    });
    startFaultSpan(tracing, result, at, parent, { [CHAOS.faultSource]: 'api' }).end(at);
  };
}
