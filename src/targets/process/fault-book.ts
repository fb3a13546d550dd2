/**
 * The faults this target has applied and not yet reverted: each with its own
 * revert, ended by its duration, by an explicit end, or by revertAll, and
 * exactly once. A newer fault of the same kind on the same agent supersedes
 * the older one.
 */
import type { ActiveFault, FaultOptions } from './contract.js';
import type { Clock, TimerHandle } from '../../shared/clock.js';
import { UsageError } from '../../shared/errors.js';
import { MAX_DURATION_MS } from './spec.js';

interface Entry {
  fault: ActiveFault;
  revert: () => Promise<void> | void;
  timer?: TimerHandle;
}

export class FaultBook {
  private readonly entries = new Map<string, Entry>();
  private seq = 0;

  constructor(
    private readonly clock: Clock,
    /** told when reverting a fault fails (its duration ended with nobody awaiting) */
    private readonly onError: (fault: ActiveFault, err: unknown) => void = () => {},
  ) {}

  static checkDuration(kind: string, options?: FaultOptions): number | undefined {
    const ms = options?.durationMs;
    if (ms !== undefined && (!Number.isInteger(ms) || ms < 0 || ms > MAX_DURATION_MS)) {
      throw new UsageError(`${kind}: duration must be whole milliseconds from 0 to 24h, got ${ms}`, {
        code: 'invalid_duration',
      });
    }
    return ms;
  }

  nextId(): string {
    return `fault-${++this.seq}`;
  }

  add(
    kind: string,
    target: string,
    options: FaultOptions | undefined,
    revert: () => Promise<void> | void,
    id = this.nextId(),
  ): ActiveFault {
    const durationMs = options?.durationMs;
    const now = this.clock.wallNow().getTime();
    const fault: ActiveFault = {
      id,
      kind,
      target,
      started_at_ms: now,
      ...(durationMs !== undefined ? { ends_at_ms: now + durationMs } : {}),
    };
    const entry: Entry = { fault, revert };
    if (durationMs !== undefined) {
      entry.timer = this.clock.setTimer(durationMs, () => void this.end(id).catch((err) => this.onError(fault, err)));
    }
    this.entries.set(id, entry);
    return fault;
  }

  has(kind: string, target: string): boolean {
    return [...this.entries.values()].some((e) => e.fault.kind === kind && e.fault.target === target);
  }

  async end(id: string): Promise<boolean> {
    const entry = this.entries.get(id);
    if (!entry) return false;
    this.entries.delete(id);
    entry.timer?.cancel();
    await entry.revert();
    return true;
  }

  /** ends every fault of `kind` on `target` (a resume ends the pause; a newer slow replaces the older) */
  async endAll(kind: string, target: string): Promise<number> {
    let n = 0;
    for (const [id, e] of [...this.entries])
      if (e.fault.kind === kind && e.fault.target === target && (await this.end(id))) n++;
    return n;
  }

  /** drops the record without reverting: the fault ended by other means (a killed process cannot stay paused) */
  forget(kind: string, target: string): void {
    for (const [id, e] of [...this.entries]) {
      if (e.fault.kind !== kind || e.fault.target !== target) continue;
      e.timer?.cancel();
      this.entries.delete(id);
    }
  }

  list(): ActiveFault[] {
    return [...this.entries.values()].map((e) => ({ ...e.fault }));
  }

  /** reverts everything; every revert is tried, the first failure is thrown after */
  async revertAll(): Promise<void> {
    let first: unknown;
    for (const id of [...this.entries.keys()]) {
      try {
        await this.end(id);
      } catch (err) {
        first ??= err;
      }
    }
    if (first !== undefined) throw first;
  }
}
