/**
 * The arena's front door: every fault goes through `execute`, which applies
 * it, records the outcome (history, stats, metrics, and an event in the event
 * store), then tells the sinks given to the constructor (subscribers, flight
 * recorder, evolution, evidence). A fault that cannot be applied is a Result
 * with `success: false` and the reason, never an exception. An action that was
 * applied but could not be recorded is an exception (UnavailableError, HTTP
 * 503) carrying its Result: the caller is told, never only a counter.
 */
import { UnavailableError, errorMessage } from '../shared/errors.js';
import { systemClock, type Clock } from '../shared/clock.js';
import type { Random } from '../shared/random.js';
import type { Action, Result } from './action.js';
import { appendWithRetry, DEFAULT_APPEND_RETRY_MS } from './append.js';
import type { EvidenceStore, EvolutionBridge, FlightBridge, RecordContext } from './bridges.js';
import type { EventStore } from './event-store.js';
import type { Injector } from './injector.js';
import { MetricsCollector, type MetricsSnapshot } from './metrics.js';
import type { ActiveFault, AgentInfo, TargetObserver } from './providers.js';
import { createAsyncQueue, type AsyncQueue } from '../shared/async-queue.js';
import { isoAt } from '../shared/iso-time.js';
import type { RunEventListener, SurvivalReport } from './report.js';
import { SurvivalController, type SurvivalStatus } from './survival/controller.js';
import type { SurvivalOptions } from './survival/run.js';

export const ARENA_STREAM = 'arena';
export const DEFAULT_HISTORY_LIMIT = 10_000;

export type ArenaEventType = 'arena.action.executed' | 'arena.action.failed';

/** What `subscribe()` yields: one per executed action, numbered per service. */
export interface ArenaEvent {
  seq: number;
  type: ArenaEventType;
  at: string;
  result: Result;
}

export interface ArenaStats {
  total: number;
  succeeded: number;
  failed: number;
  /** succeeded ÷ total, 0–1; 0 when nothing ran */
  success_rate: number;
  by_type: Record<string, { total: number; succeeded: number; failed: number }>;
  /** results dropped from the bounded history */
  dropped: number;
  /** failures of the sinks (flight, evolution, evidence), counted rather than thrown (the fault was applied) */
  sink_errors: number;
  last_error?: string;
}

export interface ArenaServiceOptions {
  injector: Injector;
  /** where each action's event is recorded; an action it cannot record is an error to the caller */
  eventStore?: EventStore;
  evidenceStore?: EvidenceStore;
  /** receives every result (the flight recorder's timeline) */
  flightBridge?: FlightBridge;
  /** receives failed results (the evolution loop) */
  evolutionBridge?: EvolutionBridge;
  /** the target's observer, for measured scores (scenario, survival) */
  observer?: TargetObserver;
  /** told every event of every run on this service (a tracer: spans per run and fault) */
  runListener?: RunEventListener;
  clock?: Clock;
  random?: Random;
  /** results kept in history(); oldest dropped first (default 10,000) */
  historyLimit?: number;
  /** event stream to append to (default `arena`) */
  streamId?: string;
  /** how long an append keeps trying a store that does not answer (ms, default 15 s) */
  appendRetryMs?: number;
}

/** what the target looked like around an action, kept as evidence */
interface TargetState {
  agents: AgentInfo[];
  faults: ActiveFault[];
}

export class ArenaService {
  readonly injector: Injector;
  readonly observer?: TargetObserver;
  readonly clock: Clock;
  readonly random?: Random;
  readonly eventStore?: EventStore;
  readonly evidenceStore?: EvidenceStore;
  readonly runListener?: RunEventListener;
  private readonly flight?: FlightBridge;
  private readonly evolution?: EvolutionBridge;
  private readonly historyLimit: number;
  private readonly streamId: string;
  private readonly appendRetryMs: number;
  /** history; entries before `historyStart` were dropped (trimmed in chunks, not one splice per action) */
  private results: Result[] = [];
  private historyStart = 0;
  /** what only the service counts; the per-action counts are the metrics collector's */
  private counters!: Pick<ArenaStats, 'dropped' | 'sink_errors' | 'last_error'>;
  private readonly metricsCollector = new MetricsCollector();
  private listeners = new Set<AsyncQueue<ArenaEvent>>();
  private seq = 0;
  private survivalController?: SurvivalController;
  /** the last append gave up: the store is asked first, and while it does not answer nothing is applied */
  private storeDown = false;

  constructor(options: ArenaServiceOptions) {
    this.injector = options.injector;
    this.observer = options.observer;
    this.clock = options.clock ?? systemClock;
    this.random = options.random;
    this.eventStore = options.eventStore;
    this.evidenceStore = options.evidenceStore;
    this.runListener = options.runListener;
    this.flight = options.flightBridge;
    this.evolution = options.evolutionBridge;
    this.historyLimit = Math.max(1, options.historyLimit ?? DEFAULT_HISTORY_LIMIT);
    this.streamId = options.streamId ?? ARENA_STREAM;
    this.appendRetryMs = Math.max(0, options.appendRetryMs ?? DEFAULT_APPEND_RETRY_MS);
    this.resetCounters();
  }

  /**
   * Applies the action, records the outcome, then tells the sinks. Never throws for a fault that
   * cannot be applied. Throws UnavailableError when the event store cannot take the record: before
   * applying anything when it is known to be down (code `event_store_unavailable`), or after the
   * action ran and its append gave up (code `event_not_recorded`, the Result in `details.result`).
   */
  async execute(action: Action, context: RecordContext = {}): Promise<Result> {
    if (this.storeDown) await this.checkStore(action);
    const before = this.evidenceStore ? await this.observe().catch(() => undefined) : undefined;
    const result = await this.apply(action);
    this.record(result);
    const type: ArenaEventType = result.success ? 'arena.action.executed' : 'arena.action.failed';
    const notRecorded = this.eventStore ? await this.append(type, result) : undefined;
    await this.notify(type, result, before, context);
    if (notRecorded) throw notRecorded;
    return result;
  }

  history(): Result[] {
    return this.results.slice(this.historyStart);
  }

  /** the counts are the metrics' own (one counter per action), in the names this view has always used */
  stats(): ArenaStats {
    const m = this.metricsCollector.snapshot();
    const by_type: ArenaStats['by_type'] = {};
    for (const [k, v] of Object.entries(m.by_type))
      by_type[k] = { total: v.total, succeeded: v.successes, failed: v.failures };
    const { dropped, sink_errors, last_error } = this.counters;
    const stats: ArenaStats = {
      total: m.total,
      succeeded: m.successes,
      failed: m.failures,
      success_rate: m.total === 0 ? 0 : m.successes / m.total,
      by_type,
      dropped,
      sink_errors,
    };
    if (last_error !== undefined) stats.last_error = last_error;
    return stats;
  }

  metrics(): MetricsSnapshot {
    return this.metricsCollector.snapshot();
  }

  /** clears history, stats and metrics (not the event stream, which is append-only) */
  reset(): void {
    this.results = [];
    this.historyStart = 0;
    this.metricsCollector.reset();
    this.resetCounters();
  }

  /** live arena events, from now on; ends when the signal aborts or the consumer stops */
  subscribe(options: { signal?: AbortSignal } = {}): AsyncIterable<ArenaEvent> {
    const queue: AsyncQueue<ArenaEvent> = createAsyncQueue<ArenaEvent>(
      () => this.listeners.delete(queue),
      options.signal,
    );
    if (!queue.closed) this.listeners.add(queue);
    return queue;
  }

  /** reverts every reversible fault still active on the target */
  async revertAll(): Promise<void> {
    await this.injector.revertAll();
  }

  /**
   * Runs survival mode against this arena's target: random faults at a fixed
   * interval, measured. One run at a time: a second start is a ConflictError.
   */
  runSurvival(options: SurvivalOptions): Promise<SurvivalReport> {
    return this.survival().start(options);
  }

  getSurvivalStatus(): SurvivalStatus {
    return this.survival().status();
  }

  /**
   * stops the running survival (faults reverted); its partial report, or undefined when none runs. A
   * StoppedError as the reason (an emergency stop) makes its status `stopped`.
   */
  stopSurvival(reason?: unknown): Promise<SurvivalReport | undefined> {
    return this.survival().stop(reason);
  }

  /** the last finished survival report */
  getSurvivalReport(): SurvivalReport | undefined {
    return this.survival().lastReport();
  }

  private survival(): SurvivalController {
    return (this.survivalController ??= new SurvivalController(this));
  }

  private record(result: Result): void {
    this.results.push(result);
    if (this.results.length - this.historyStart > this.historyLimit) {
      this.historyStart += 1;
      this.counters.dropped += 1;
      // a splice per action moved the whole history (10,000 entries by default) every time
      if (this.historyStart >= this.historyLimit) {
        this.results = this.results.slice(this.historyStart);
        this.historyStart = 0;
      }
    }
    this.metricsCollector.recordActionResult(result);
  }

  private async apply(action: Action): Promise<Result> {
    const started = this.clock.now();
    try {
      const report = await this.injector.apply(action);
      const duration_ms = this.elapsed(started);
      return Object.keys(report).length > 0
        ? { success: true, action, duration_ms, metadata: report }
        : { success: true, action, duration_ms };
    } catch (err) {
      return { success: false, action, error: errorMessage(err), duration_ms: this.elapsed(started) };
    }
  }

  /** the event in the store, or the error to give the caller */
  private async append(type: ArenaEventType, result: Result): Promise<UnavailableError | undefined> {
    try {
      await appendWithRetry(
        this.eventStore!,
        this.streamId,
        { type, data: result },
        { clock: this.clock, totalMs: this.appendRetryMs },
      );
      this.storeDown = false;
      return undefined;
    } catch (err) {
      this.storeDown = true;
      return new UnavailableError(
        `${result.action.type} ${result.action.id} ran (${result.success ? 'applied' : 'failed'}) but was not recorded in the event store: ${errorMessage(err)}`,
        {
          code: 'event_not_recorded',
          cause: err,
          details: { result },
          hint: 'the event store did not take the record in time; check it before running more faults',
        },
      );
    }
  }

  /** the store failed last time: applies nothing until it answers again */
  private async checkStore(action: Action): Promise<void> {
    try {
      await this.eventStore!.streamVersion(this.streamId);
      this.storeDown = false;
    } catch (err) {
      throw new UnavailableError(
        `${action.type} ${action.id} was not applied: the event store cannot record it (${errorMessage(err)})`,
        {
          code: 'event_store_unavailable',
          cause: err,
          hint: 'nothing was changed; try again once the event store is back',
        },
      );
    }
  }

  /** subscribers, then every sink at once; a sink's failure is counted, not thrown (the fault was applied) */
  private async notify(
    type: ArenaEventType,
    result: Result,
    before: TargetState | undefined,
    context: RecordContext = {},
  ): Promise<void> {
    const seq = ++this.seq;
    const at = isoAt(this.clock.wallNow().getTime());
    if (this.listeners.size > 0) {
      const event: ArenaEvent = { seq, type, at, result };
      for (const l of this.listeners) l.push(event);
    }
    const sinks: Array<() => unknown> = [];
    const { flight, evolution, evidenceStore } = this;
    if (flight) sinks.push(() => flight.record(result, context));
    if (evolution && !result.success) sinks.push(() => evolution.onFailure(result));
    if (evidenceStore && before) sinks.push(() => this.saveEvidence(evidenceStore, result, at, before));
    await Promise.all(sinks.map((sink) => Promise.resolve().then(sink).catch(this.sinkFailed)));
  }

  private async saveEvidence(evidence: EvidenceStore, result: Result, at: string, before: TargetState): Promise<void> {
    const after = await this.observe();
    await evidence.save({
      action_id: result.action.id,
      action: result.action,
      success: result.success,
      at,
      before,
      after,
    });
  }

  private readonly sinkFailed = (err: unknown): void => {
    this.counters.sink_errors += 1;
    this.counters.last_error = errorMessage(err);
  };

  private async observe(): Promise<TargetState> {
    const [agents, faults] = await Promise.all([this.injector.agents(), this.injector.activeFaults()]);
    return { agents, faults };
  }

  private elapsed(started: number): number {
    return Math.max(0, Math.round((this.clock.now() - started) * 1000) / 1000);
  }

  private resetCounters(): void {
    this.counters = { dropped: 0, sink_errors: 0 };
  }
}
