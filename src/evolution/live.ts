/**
 * Live evolution of a served runtime (`arena serve --evolve`): the strategy in
 * force is patched only from faults that really happened and that the runtime
 * did not recover from in time. A fault that could not be applied (422)
 * changed nothing, so it teaches nothing; it is never turned into a patch.
 * Off unless asked for, because it rewrites the strategy of a live runtime.
 */
import type { Result } from '../arena/action.js';
import type { ArenaEvent } from '../arena/service.js';
import type { TargetObserver } from '../arena/providers.js';
import { startMeasurement } from '../arena/measure/index.js';
import type { Clock } from '../shared/clock.js';
import { errorMessage } from '../shared/errors.js';
import type { ArenaEvolutionBridge } from './bridge.js';

export interface LiveEvolutionStatus {
  enabled: true;
  learns_from: string;
  recovery_deadline_ms: number;
  /** applied faults seen so far */
  watched: number;
  /** of those, not recovered before the deadline: each became a proposal */
  unrecovered: number;
  /** proposals the coordinator applied / rejected / delayed */
  decisions: Record<string, number>;
  last_error?: string;
}

export interface LiveEvolution {
  status(): LiveEvolutionStatus;
  stop(): Promise<void>;
}

export interface LiveEvolutionOptions {
  service: { subscribe(options: { signal?: AbortSignal }): AsyncIterable<ArenaEvent> };
  observer: TargetObserver;
  bridge: ArenaEvolutionBridge;
  clock?: Clock;
  recoveryDeadlineMs?: number;
}

export const LIVE_RECOVERY_DEADLINE_MS = 10_000;

export function startLiveEvolution(options: LiveEvolutionOptions): LiveEvolution {
  const deadline = options.recoveryDeadlineMs ?? LIVE_RECOVERY_DEADLINE_MS;
  const controller = new AbortController();
  const results = new Map<string, Result>();
  const decisions: Record<string, number> = {};
  let watched = 0;
  let unrecovered = 0;
  let lastError: string | undefined;
  const learning = new Set<Promise<unknown>>();
  let stopped = false;

  const ready = startMeasurement({
    observer: options.observer,
    ...(options.clock ? { clock: options.clock } : {}),
    recoveryDeadlineMs: deadline,
    onRecovery(recovery) {
      const result = results.get(recovery.action_id);
      results.delete(recovery.action_id);
      // at stop, faults still being watched are settled too: that is no verdict to learn from
      if (stopped || recovery.recovered || !result) return;
      unrecovered++;
      const p = options.bridge.handle(result).then(
        ({ decision }) => void (decisions[decision.decision] = (decisions[decision.decision] ?? 0) + 1),
        (err: unknown) => void (lastError = errorMessage(err)),
      );
      learning.add(p);
      void p.finally(() => learning.delete(p));
    },
  });
  // subscribed before the first workload sample resolves: no action in between is missed
  const events = options.service.subscribe({ signal: controller.signal });
  const loop = (async () => {
    const session = await ready;
    for await (const event of events) {
      // only faults that took effect are watched; the measurement ignores the rest as well
      if (!event.result.success) continue;
      watched++;
      results.set(event.result.action.id, event.result);
      session.faultInjected(event.result);
    }
  })().catch((err: unknown) => void (lastError = errorMessage(err)));

  return {
    status: () => ({
      enabled: true,
      learns_from: `applied faults the runtime did not recover from within ${deadline} ms (faults that could not be applied are ignored)`,
      recovery_deadline_ms: deadline,
      watched,
      unrecovered,
      decisions: { ...decisions },
      ...(lastError ? { last_error: lastError } : {}),
    }),
    async stop() {
      stopped = true;
      controller.abort();
      await loop;
      await (await ready).finish({ waitForRecovery: false }).catch(() => undefined);
      await Promise.allSettled([...learning]);
    },
  };
}
