/**
 * `--metrics-file FILE`: a finished run's figures in the Prometheus text
 * format, for node_exporter's textfile collector (DESIGN §17). The same names
 * as GET /metrics on `arena serve`, from the reports rather than live events.
 * prom-client is loaded only when the flag is given.
 */
import type { ScenarioReport, ScoreReport, SurvivalReport } from '../../arena/report.js';
import type { Result } from '../../arena/action.js';
import { loadArenaMetrics } from '../../protocol/metrics.js';

export type FinishedRun = { kind: 'scenario'; report: ScenarioReport } | { kind: 'survival'; report: SurvivalReport };

export async function renderRunMetrics(runs: readonly FinishedRun[]): Promise<string> {
  const m = await loadArenaMetrics();
  let last: ScoreReport | undefined;
  const requests = { succeeded: 0, failed: 0 };
  for (const run of runs) {
    const results: Result[] =
      run.kind === 'scenario' ? run.report.results.map((r) => r.result) : run.report.timeline.map((t) => t.result);
    for (const r of results) m.fault(r.action.type, r.action.target_id, r.success ? 'applied' : 'refused');
    const score = run.report.score;
    for (const f of score.measurements.recovery.faults)
      if (f.recovered && f.recovery_ms !== undefined) m.recovery(f.type, f.recovery_ms / 1000);
    requests.succeeded += score.measurements.requests.succeeded;
    requests.failed += score.measurements.requests.failed;
    m.run(run.kind, run.report.status);
    last = score;
  }
  m.workload(requests);
  // a gauge holds one value: with several scenarios, the last one's score (each is in the report)
  if (last)
    m.score({
      score: last.score,
      availability: last.availability,
      recovery: last.recovery,
      consistency: last.consistency,
    });
  return m.text();
}
