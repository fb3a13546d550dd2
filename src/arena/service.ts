/**
 * The arena's front door: every fault goes through `execute`, which applies
 * it, records the outcome (history, stats, metrics, evidence, event stream)
 * and tells the bridges. A fault that cannot be applied is a Result with
 * `success: false` and the reason, never an exception.
 */
import { ConflictError, errorMessage } from '../shared/errors.js';
import { systemClock, type Clock } from '../shared/clock.js';
import type { Random } from '../shared/random.js';
import type { Action, Result } from './action.js';
import type { EvidenceStore, EvolutionBridge, FlightBridge } from './bridges.js';
import type { EventStore } from './event-store.js';
import type { Injector } from './injector.js';
import { MetricsCollector, type MetricsSnapshot } from './metrics.js';
import type { ActiveFault, AgentInfo, TargetObserver } from './providers.js';
import { createAsyncQueue, type AsyncQueue } from '../shared/async-queue.js';
import { isoAt } from '../shared/iso-time.js';
import type { SurvivalReport } from './report.js';
import { SurvivalController, type SurvivalStatus } from './survival/controller.js';
import type { SurvivalOptions } from './survival/run.js';

export const ARENA_STREAM = 'arena';

const noop = (): void => {};
/** without the array Object.keys would allocate per action */
const hasKeys = (o: object): boolean => {
  for (const _ in o) return true;
  return false;
};
/** waits for whichever of the two is pending */
const both = (a: Promise<unknown> | undefined, b: Promise<unknown> | undefined): Promise<unknown> | undefined =>
  !a ? b : !b ? a : Promise.all([a, b]);
const isThenable = (value: unknown): value is PromiseLike<unknown> =>
  typeof (value as PromiseLike<unknown> | undefined)?.then === 'function';
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
  /** event store or bridge failures, counted rather than thrown (the fault was applied) */
  sink_errors: number;
  last_error?: string;
}

export interface ArenaServiceOptions {
  injector: Injector;
  eventStore?: EventStore;
  evidenceStore?: EvidenceStore;
  /** the target's observer, for measured scores (scenario, survival) */
  observer?: TargetObserver;
  clock?: Clock;
  random?: Random;
  /** results kept in history(); oldest dropped first (default 10,000) */
  historyLimit?: number;
  /** event stream to append to (default `arena`) */
  streamId?: string;
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
  private readonly historyLimit: number;
  private readonly streamId: string;
  /** history; entries before `historyStart` were dropped (trimmed in chunks, not one splice per action) */
  private results: Result[] = [];
  private historyStart = 0;
  /** what only the service counts; the per-action counts are the metrics collector's */
  private counters!: Pick<ArenaStats, 'dropped' | 'sink_errors' | 'last_error'>;
  private readonly metricsCollector = new MetricsCollector();
  private flight?: FlightBridge;
  private evolution?: EvolutionBridge;
  private listeners = new Set<AsyncQueue<ArenaEvent>>();
  private seq = 0;
  private survivalController?: SurvivalController;
  /** appends are serialised so expected versions follow one another */
  private appendChain: Promise<void> = Promise.resolve();
  private appendsInFlight = 0;
  /** the stream version after our last append; re-read only when another writer got in between */
  private knownVersion: number | undefined;
  /** the event of the append in flight (one at a time), for its retry: fields, not a closure per action */
  private appendingType: ArenaEventType = 'arena.action.executed';
  private appendingResult: Result | undefined;

  constructor(options: ArenaServiceOptions) {
    this.injector = options.injector;
    this.observer = options.observer;
    this.clock = options.clock ?? systemClock;
    this.random = options.random;
    this.eventStore = options.eventStore;
    this.evidenceStore = options.evidenceStore;
    this.historyLimit = Math.max(1, options.historyLimit ?? DEFAULT_HISTORY_LIMIT);
    this.streamId = options.streamId ?? ARENA_STREAM;
    this.resetCounters();
  }

  /** Applies the action and records the outcome. Never throws for a fault that cannot be applied. */
  async execute(action: Action): Promise<Result> {
    const before = this.evidenceStore ? await this.observe().catch(() => undefined) : undefined;
    const started = this.clock.now();
    let result: Result;
    try {
      const report = await this.injector.apply(action);
      const duration_ms = this.elapsed(started);
      // built whole: a metadata key added afterwards costs the object a second store for its properties.
      // A copy: the report may be an object the provider keeps (Injector.apply)
      result =
        report && hasKeys(report)
          ? { success: true, action, duration_ms, metadata: { ...report } }
          : { success: true, action, duration_ms };
    } catch (err) {
      result = { success: false, action, error: errorMessage(err), duration_ms: this.elapsed(started) };
    }
    this.record(result);
    const pending = this.publish(result, before);
    if (pending) await pending;
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

  setFlightBridge(bridge: FlightBridge | undefined): void {
    this.flight = bridge;
  }

  setEvolutionBridge(bridge: EvolutionBridge | undefined): void {
    this.evolution = bridge;
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

  /** stops the running survival (faults reverted); its partial report, or undefined when none runs */
  stopSurvival(): Promise<SurvivalReport | undefined> {
    return this.survival().stop();
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

  /** tells listeners and sinks; returns a promise only when a sink really has to be waited for */
  private publish(result: Result, before: TargetState | undefined): Promise<unknown> | undefined {
    const type: ArenaEventType = result.success ? 'arena.action.executed' : 'arena.action.failed';
    const seq = ++this.seq;
    // the timestamp only when someone reads it: a Date and its ISO string per action add up
    const at = this.listeners.size > 0 || (this.evidenceStore && before) ? isoAt(this.clock.wallNow().getTime()) : '';
    if (this.listeners.size > 0) {
      const event: ArenaEvent = { seq, type, at, result };
      for (const l of this.listeners) l.push(event);
    }
    // sinks that finish synchronously (an in-process flight recorder, an append to a store in memory
    // or SQLite) cost no promise; only what really waits is awaited
    let pending: Promise<unknown> | undefined = this.eventStore ? this.appendEvent(type, result) : undefined;
    const flight = this.flight;
    if (flight) pending = both(pending, this.settle(flight.record, flight, result));
    const evolution = this.evolution;
    if (!result.success && evolution) pending = both(pending, this.settle(evolution.onFailure, evolution, result));
    const evidence = this.evidenceStore;
    if (evidence && before)
      pending = both(pending, this.settle(this.saveEvidence, this, { evidence, result, at, before }));
    return pending;
  }

  /**
   * Appends with the expected version: the one our last append left, so the usual case is
   * one store call; another writer on the stream → re-read and retry. Appends are chained,
   * so versions follow one another; with none in flight the append starts at once, and with
   * a store that appends synchronously it is done before this returns (nothing to wait for).
   */
  private appendEvent(type: ArenaEventType, result: Result): Promise<void> | undefined {
    if (this.appendsInFlight === 0 && this.knownVersion !== undefined && this.eventStore!.appendSync) {
      try {
        this.stored(this.eventStore!.appendSync(this.streamId, [{ type, data: result }], this.knownVersion));
        return undefined;
      } catch (err) {
        // handled as a rejected append is: counted, or re-read and retried after a conflict
        this.appendsInFlight = 1;
        this.appendingType = type;
        this.appendingResult = result;
        const retry = this.appendRejected(err);
        if (!retry) return undefined;
        this.appendChain = retry;
        return retry;
      }
    }
    this.appendsInFlight += 1;
    const next =
      this.appendsInFlight === 1
        ? this.appendOnce(type, result)
        : this.appendChain.then(() => this.appendOnce(type, result));
    this.appendChain = next;
    return next;
  }

  /**
   * The usual case in one store call and one `then`: the version our last append left. A conflict
   * (another writer got in between) re-reads and retries; any other failure is counted.
   */
  private appendOnce(type: ArenaEventType, result: Result): Promise<void> {
    const version = this.knownVersion;
    if (version === undefined) return this.appendWithRetry(type, result, 0).then(this.appended, this.appendFailed);
    this.appendingType = type;
    this.appendingResult = result;
    return this.eventStore!.append(this.streamId, [{ type, data: result }], version).then(
      this.storedOne,
      this.appendRejected,
    );
  }

  /** a conflict (another writer got in between) re-reads the version and retries; any other failure is counted */
  private readonly appendRejected = (err: unknown): Promise<void> | void => {
    this.knownVersion = undefined;
    if (!(err instanceof ConflictError)) return this.appendFailed(err);
    return this.appendWithRetry(this.appendingType, this.appendingResult!, 1).then(this.appended, this.appendFailed);
  };

  private readonly storedOne = (events: Array<{ version: number }>): void => {
    this.stored(events);
    this.appended();
  };

  private readonly stored = (events: Array<{ version: number }>): void => {
    this.knownVersion = events.at(-1)?.version;
  };

  private readonly appended = (): void => {
    this.appendsInFlight -= 1;
  };

  private readonly appendFailed = (err: unknown): void => {
    this.appendsInFlight -= 1;
    this.sinkFailed(err);
  };

  private async appendWithRetry(type: ArenaEventType, result: Result, firstAttempt: number): Promise<void> {
    const store = this.eventStore!;
    for (let attempt = firstAttempt; ; attempt++) {
      const version = this.knownVersion ?? (await store.streamVersion(this.streamId));
      try {
        this.stored(await store.append(this.streamId, [{ type, data: result }], version));
        return;
      } catch (err) {
        this.knownVersion = undefined;
        if (!(err instanceof ConflictError) || attempt >= 4) throw err;
      }
    }
  }

  /**
   * runs `fn` on `arg` with `self` as this (no closure per action); a failure is counted, not thrown
   * (the fault was applied); returns a promise only when the sink has not finished
   */
  private settle<T>(fn: (this: unknown, arg: T) => unknown, self: unknown, arg: T): Promise<void> | undefined {
    try {
      const out = fn.call(self, arg);
      if (isThenable(out)) return Promise.resolve(out).then(noop, this.sinkFailed);
    } catch (err) {
      this.sinkFailed(err);
    }
    return undefined;
  }

  private async saveEvidence(job: {
    evidence: EvidenceStore;
    result: Result;
    at: string;
    before: TargetState;
  }): Promise<void> {
    const { evidence, result, at, before } = job;
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
