/**
 * Feeds the metrics from a live arena: every executed action as it happens
 * (the service's event subscription), and at each scrape what is read rather
 * than pushed: the active faults, the live score, new recoveries and the
 * workload counters.
 */
import type { ActiveFault, WorkloadCounters } from '../../arena/providers.js';
import type { FaultRecovery } from '../../arena/report.js';
import type { ArenaService } from '../../arena/service.js';
import type { ArenaMetrics, ScoreDimension } from '../../protocol/metrics.js';

/** what GET /arena/score answers, the parts the metrics read */
export interface LiveScoreView {
  score: number | null;
  availability: number | null;
  recovery: number | null;
  consistency: number | null;
  recoveries: FaultRecovery[];
  workload: WorkloadCounters;
}

export interface ArenaSource {
  service: ArenaService;
  activeFaults(): Promise<ActiveFault[]>;
  /** the server's score session; undefined when the target has no observer */
  score(): Promise<LiveScoreView> | undefined;
}

export function feedFromArena(metrics: Promise<ArenaMetrics>, source: ArenaSource): { close(): void } {
  const controller = new AbortController();
  // subscribed now, not when prom-client has loaded: no action in between is missed
  const events = source.service.subscribe({ signal: controller.signal });
  void (async () => {
    const m = await metrics;
    for await (const { result } of events)
      m.fault(result.action.type, result.action.target_id, result.success ? 'applied' : 'refused');
  })().catch(() => undefined);

  const observed = new Set<string>();
  void metrics.then((m) =>
    m.beforeCollect(async () => {
      m.activeFaults(await source.activeFaults());
      const pending = source.score();
      if (!pending) return;
      const live = await pending;
      const dims: Partial<Record<ScoreDimension, number | null>> = {
        score: live.score,
        availability: live.availability,
        recovery: live.recovery,
        consistency: live.consistency,
      };
      m.score(dims);
      m.workload(live.workload);
      for (const r of live.recoveries) {
        if (!r.recovered || r.recovery_ms === undefined || observed.has(r.action_id)) continue;
        observed.add(r.action_id);
        m.recovery(r.type, r.recovery_ms / 1000);
      }
    }),
  );
  return { close: () => controller.abort() };
}

/** a finished run's verdict: its report's status (passed, failed, interrupted, error); "error" without a report */
export function runVerdict(report: unknown): string {
  const status = (report as { status?: unknown } | undefined)?.status;
  return typeof status === 'string' ? status : 'error';
}
