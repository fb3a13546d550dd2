/**
 * Turns finished runs into the command's outcome: exit 130 when interrupted,
 * 3 on a runtime error, 1 when a gate or an expectation failed, else 0.
 * Thrown after the report was printed and written.
 */
import type { ActiveFault } from '../../arena/providers.js';
import type { GateOutcome, RunStatus, ScoreReport } from '../../arena/report.js';
import { CancelledError, GateFailedError, RuntimeError } from '../../shared/errors.js';
import { gateText } from '../output/table.js';
import { stoppedByText, type StoppedBy } from '../../arena/safety/watch.js';

export interface RunOutcome {
  name: string;
  status: RunStatus;
  verified?: boolean;
  failed?: number;
  gate?: GateOutcome;
  error?: string;
  inconclusive_why?: string;
  score?: ScoreReport;
  reverted_faults?: ActiveFault[];
  stopped_by?: StoppedBy;
}

export function throwForOutcomes(runs: RunOutcome[], reportFile?: string): void {
  const interrupted = runs.filter((r) => r.status === 'interrupted');
  if (interrupted.length > 0) {
    const reverted = runs.flatMap((r) => r.reverted_faults ?? []);
    const list = reverted.length ? `: ${reverted.map((f) => `${f.kind} on ${f.target}`).join(', ')}` : '';
    const written = reportFile ? `; partial report written to ${reportFile}` : '';
    throw new CancelledError(`interrupted; ${reverted.length} active fault(s) reverted${list}${written}`);
  }
  const errored = runs.find((r) => r.status === 'error');
  if (errored) throw new RuntimeError(`${errored.name}: ${errored.error ?? 'the run failed'}`, 'run_failed');
  const problems: string[] = [];
  for (const r of runs) {
    const before = problems.length;
    if (r.stopped_by) problems.push(`${r.name}: ${stoppedByText(r.stopped_by)}`);
    if (r.status === 'inconclusive')
      problems.push(`${r.name}: inconclusive: ${r.inconclusive_why ?? 'nothing measured'}`);
    for (const c of r.score?.measurements.consistency.failed_checks ?? [])
      if (c.gate !== false) problems.push(`${r.name}: invariant ${c.name} failed${c.detail ? ` (${c.detail})` : ''}`);
    if (r.gate && !r.gate.passed) {
      problems.push(`${r.name}: ${gateText(r.gate)}`);
    }
    if (r.verified === false && (r.failed ?? 0) > 0) problems.push(`${r.name}: ${r.failed} expectation(s) not met`);
    // a verdict is never passed over in silence
    if (r.status === 'failed' && problems.length === before) problems.push(`${r.name}: failed`);
  }
  if (problems.length > 0) throw new GateFailedError(problems.join('; '));
}
