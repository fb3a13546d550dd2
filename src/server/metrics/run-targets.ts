/**
 * The figures of a run's `--serve` feed that are read from its target rather than its events, at
 * each scrape: the tokens its LLM proxies saw (Target.calls) and its workload counters. A scenario
 * file with several scenarios builds one target after another: the counters go on from where the
 * previous target's ended, so `arena_workload_requests_total` never goes down during the run.
 */
import type { Target, WorkloadCounters } from '../../arena/providers.js';
import { countLedgerTokens, type ArenaMetrics } from '../../protocol/metrics.js';

type Counts = Pick<WorkloadCounters, 'succeeded' | 'failed'>;

export interface RunTargets {
  /** the run built this target: its figures from now on */
  watch(target: Pick<Target, 'observer' | 'calls'>): void;
  /** reads the watched target's figures into the metrics (a beforeCollect hook) */
  collect(): Promise<void>;
}

export function countRunTargets(m: ArenaMetrics): RunTargets {
  let current: { target: Pick<Target, 'observer' | 'calls'>; tokens?: () => void } | undefined;
  /** the counters of the targets before the current one, and the current one's last reading */
  let before: Counts = { succeeded: 0, failed: 0 };
  let last: Counts = { succeeded: 0, failed: 0 };
  return {
    watch(target) {
      before = { succeeded: before.succeeded + last.succeeded, failed: before.failed + last.failed };
      last = { succeeded: 0, failed: 0 };
      current = { target, ...(target.calls ? { tokens: countLedgerTokens(m, target.calls) } : {}) };
    },
    async collect() {
      if (!current) return;
      current.tokens?.();
      // not started yet, or stopped and gone: the last reading stands
      const read = await current.target.observer.workload().catch(() => undefined);
      if (read) last = { succeeded: read.succeeded, failed: read.failed };
      m.workload({ succeeded: before.succeeded + last.succeeded, failed: before.failed + last.failed });
    },
  };
}
