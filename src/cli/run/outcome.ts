/**
 * Turns finished runs into the command's outcome: exit 130 when interrupted,
 * 3 on a runtime error, 1 when a gate or an expectation failed, else 0.
 * Thrown after the report was printed and written.
 */
import type { ActiveFault } from '../../arena/providers.js';
import { isCutShort, type GateOutcome, type RunStatus, type ScoreReport } from '../../arena/report.js';
import { CancelledError, GateFailedError, RuntimeError, StoppedError } from '../../shared/errors.js';
import { gateText } from '../output/table.js';
import { stoppedByText } from '../../arena/safety/watch.js';
import type { StoppedBy } from '../../arena/safety/types.js';

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
  const cutShort = runs.filter((r) => isCutShort(r.status));
  if (cutShort.length > 0) {
    const reverted = runs.flatMap((r) => r.reverted_faults ?? []);
    const list = reverted.length ? `: ${reverted.map((f) => `${f.kind} on ${f.target}`).join(', ')}` : '';
    const written = reportFile ? `; partial report written to ${reportFile}` : '';
    const what = `${reverted.length} active fault(s) reverted${list}${written}`;
    // both exit 130; an emergency stop says so, so the terminal that started the run knows why it ended
    if (cutShort.some((r) => r.status === 'stopped')) throw new StoppedError(`stopped by arena stop; ${what}`);
    throw new CancelledError(`interrupted; ${what}`);
  }
  const errored = runs.find((r) => r.status === 'error');
  if (errored) throw new RuntimeError(`${errored.name}: ${errored.error ?? 'the run failed'}`, { code: 'run_failed' });
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
