/**
 * Turns finished runs into the command's outcome: exit 130 when interrupted,
 * 3 on a runtime error, 1 when a gate or an expectation failed, else 0.
 * Thrown after the report was printed and written.
 */
import type { ActiveFault } from '../../arena/providers.js';
import type { GateOutcome, RunStatus } from '../../arena/report.js';
import { CancelledError, GateFailedError, RuntimeError } from '../../shared/errors.js';
import { gateText } from '../output/table.js';

export interface RunOutcome {
  name: string;
  status: RunStatus;
  verified?: boolean;
  failed?: number;
  gate?: GateOutcome;
  error?: string;
  reverted_faults?: ActiveFault[];
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
    if (r.gate && !r.gate.passed) {
      problems.push(`${r.name}: ${gateText(r.gate)}`);
    }
    if (r.verified === false) problems.push(`${r.name}: ${r.failed ?? 'some'} expectation(s) not met`);
  }
  if (problems.length > 0) throw new GateFailedError(problems.join('; '));
}
