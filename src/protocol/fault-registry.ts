/**
 * Active faults with leases (DESIGN §9): the dead-man's switch every fault
 * server shares. A fault is reverted when its duration ends, when its lease
 * runs out without a renewal, on DELETE, or on shutdown, whichever comes
 * first, and exactly once. The same fault id applied twice applies nothing
 * the second time and answers what the first one answered.
 */
import { systemClock, type Clock, type TimerHandle } from '../shared/clock.js';
import { ProtocolError, type FaultAccepted, type FaultRequest, type WireActiveFault } from './wire.js';

/**
 * Active faults one server holds at most (a new one past it is a 409): every
 * active fault is looked at on each new connection or request, and 20,000 of
 * them made each new TCP connection cost most of a second.
 */
export const MAX_ACTIVE_FAULTS = 1000;

/** What applying a fault gave back. No `revert` means the fault was instant (a kill): nothing stays active. */
export interface AppliedFault {
  report?: Record<string, unknown>;
  revert?: () => Promise<void> | void;
}

/** Applies one validated fault for real, or throws a ProtocolError (404 / 422) saying why not. */
export type FaultApplier = (request: FaultRequest) => Promise<AppliedFault>;

export type RevertReason = 'duration' | 'lease' | 'delete' | 'shutdown';

export interface FaultRegistryOptions {
  apply: FaultApplier;
  clock?: Clock;
  /** told after each revert, with why it happened and the error if reverting failed */
  onRevert?: (fault: WireActiveFault, reason: RevertReason, error?: unknown) => void;
  /** how many answered fault ids are remembered for idempotency (default 10000) */
  rememberIds?: number;
  /** active faults at most (default MAX_ACTIVE_FAULTS) */
  maxActive?: number;
}

interface Active {
  wire: WireActiveFault;
  revert: () => Promise<void> | void;
  /** monotonic times: the wire's ends_at_ms is wall time, timers run on the clock */
  durationEndsAt: number;
  leaseEndsAt: number;
  timer?: TimerHandle;
}

export interface FaultRegistry {
  /** 201 when applied now, 200 when the id was seen before (nothing applied twice) */
  add(request: FaultRequest): Promise<{ status: 200 | 201; body: FaultAccepted }>;
  /** true when the fault was active and is now reverted */
  remove(id: string): Promise<boolean>;
  /** ids still active, their leases extended to now + leaseMs */
  renew(ids: readonly string[], leaseMs: number): string[];
  list(): WireActiveFault[];
  /** reverts every active fault (shutdown); resolves when all are reverted */
  revertAll(): Promise<void>;
}

export function createFaultRegistry(options: FaultRegistryOptions): FaultRegistry {
  const clock = options.clock ?? systemClock;
  const remember = options.rememberIds ?? 10_000;
  const maxActive = options.maxActive ?? MAX_ACTIVE_FAULTS;
  const active = new Map<string, Active>();
  // every id ever answered, in order, so a repeated POST gets the same body
  const answered = new Map<string, Promise<FaultAccepted>>();

  /** `rethrow`: a DELETE is answered with the revert's failure, never `reverted: true` for a revert that failed */
  const finish = async (id: string, reason: RevertReason, rethrow = false): Promise<boolean> => {
    const fault = active.get(id);
    if (!fault) return false;
    active.delete(id);
    fault.timer?.cancel();
    try {
      await fault.revert();
      options.onRevert?.(fault.wire, reason);
    } catch (err) {
      options.onRevert?.(fault.wire, reason, err);
      if (rethrow) throw err;
    }
    return true;
  };

  const arm = (fault: Active) => {
    fault.timer?.cancel();
    const at = Math.min(fault.durationEndsAt, fault.leaseEndsAt);
    const reason: RevertReason = fault.durationEndsAt <= fault.leaseEndsAt ? 'duration' : 'lease';
    fault.timer = clock.setTimer(Math.max(0, at - clock.now()), () => void finish(fault.wire.id, reason));
  };

  let applying = 0;
  const applyNew = async (request: FaultRequest): Promise<FaultAccepted> => {
    applying++;
    try {
      return applyOne(request, await options.apply(request));
    } finally {
      applying--;
    }
  };

  const applyOne = (request: FaultRequest, applied: AppliedFault): FaultAccepted => {
    const body: FaultAccepted = { id: request.id, report: applied.report ?? {} };
    if (applied.revert) {
      const now = clock.now();
      const wire: WireActiveFault = { id: request.id, type: request.type, started_at_ms: clock.wallNow().getTime() };
      if (request.target_id !== undefined) wire.target_id = request.target_id;
      if (request.duration_ms !== undefined) wire.ends_at_ms = wire.started_at_ms + request.duration_ms;
      const fault: Active = {
        wire,
        revert: applied.revert,
        durationEndsAt: request.duration_ms === undefined ? Infinity : now + request.duration_ms,
        leaseEndsAt: now + request.lease_ms,
      };
      active.set(request.id, fault);
      arm(fault);
    }
    return body;
  };

  return {
    async add(request) {
      const seen = answered.get(request.id);
      if (seen) return { status: 200, body: await seen };
      // counted with those being applied, so a burst of requests cannot slip past the cap
      if (active.size + applying >= maxActive)
        throw new ProtocolError(
          409,
          'too_many_faults',
          `${maxActive} faults are active already: revert some (DELETE /v1/faults/{id}, POST /v1/reset) before adding more`,
        );
      const pending = applyNew(request);
      answered.set(request.id, pending);
      try {
        return { status: 201, body: await pending };
      } catch (err) {
        // a fault that was not applied may be tried again under the same id
        answered.delete(request.id);
        throw err;
      } finally {
        while (answered.size > remember) answered.delete(answered.keys().next().value as string);
      }
    },
    remove: (id) => finish(id, 'delete', true),
    renew(ids, leaseMs) {
      const renewed: string[] = [];
      for (const id of ids) {
        const fault = active.get(id);
        if (!fault) continue;
        fault.leaseEndsAt = clock.now() + leaseMs;
        arm(fault);
        renewed.push(id);
      }
      return renewed;
    },
    list: () => [...active.values()].map((f) => ({ ...f.wire })),
    async revertAll() {
      await Promise.all([...active.keys()].map((id) => finish(id, 'shutdown')));
    },
  };
}
