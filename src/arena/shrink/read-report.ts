/**
 * Reads a saved report (`--json` / `--report`, schema_version 1) into what
 * shrink needs: the faults at their planned times, the seed, the failure
 * signature and the run's timings. A report that did not fail, or is not a
 * report, is refused (exit 2) before anything runs.
 */
import { assertWholeTimeline } from '../survival/run.js';
import { isPlainObject, parseAction } from '../actions.js';
import { UsageError, errorMessage } from '../../shared/errors.js';
import type { ActionOutcome, ScenarioReport } from '../report.js';
import { failuresOf, familiesOf, type FailureSignature } from './signature.js';
import type { ShrinkFault } from './types.js';

export interface ShrinkInput {
  kind: 'scenario' | 'survival';
  name: string;
  seed: number;
  faults: ShrinkFault[];
  signature: FailureSignature;
  /** the gate the original ran with, kept so a gate failure stays expressible */
  min_score?: number;
  /** the scenario file the report names, when any (its config gives warmup, cooldown, deadlines) */
  file?: string;
}

const DEFAULT_WARMUP_MS = 1000;

/** `warmupMs` converts a scenario's planned times (since the run started) to times after the warmup */
export function shrinkInputFromReport(doc: unknown, source = 'report', warmupMs = DEFAULT_WARMUP_MS): ShrinkInput {
  if (!isPlainObject(doc))
    throw new UsageError(`${source}: not a report document (expected a JSON object)`, { code: 'invalid_report' });
  if (doc.schema_version !== 1)
    throw new UsageError(
      `${source}: unsupported schema_version ${JSON.stringify(doc.schema_version)} (this arena reads 1)`,
      { code: 'invalid_report' },
    );
  if (isPlainObject(doc.survival)) return fromSurvival(doc.survival, source);
  if (Array.isArray(doc.scenarios)) {
    const failing = doc.scenarios.filter((s) => isPlainObject(s) && s.status === 'failed');
    if (failing.length === 0)
      throw new UsageError(
        `${source}: no failed scenario in it (statuses: ${doc.scenarios.map((s) => (isPlainObject(s) ? String(s.status) : '?')).join(', ') || 'none'}); there is nothing to shrink`,
        { code: 'report_not_failing' },
      );
    if (failing.length > 1)
      throw new UsageError(`${source}: ${failing.length} failed scenarios; shrink one report at a time`, {
        code: 'invalid_report',
      });
    return fromScenario(failing[0] as Record<string, unknown>, source, warmupMs);
  }
  throw new UsageError(`${source}: holds neither "survival" nor "scenarios"`, { code: 'invalid_report' });
}

function fromScenario(s: Record<string, unknown>, source: string, warmupMs: number): ShrinkInput {
  const report = s as unknown as ScenarioReport;
  const results = Array.isArray(s.results) ? (s.results as ActionOutcome[]) : [];
  const faults: ShrinkFault[] = [];
  results.forEach((r, i) => {
    if (!isPlainObject(r) || !isPlainObject(r.result))
      throw new UsageError(`${source}: results[${i}] is not an action outcome`, { code: 'invalid_report' });
    if (String(r.result.error ?? '').startsWith('skipped:')) return;
    faults.push(
      toFault(
        i,
        String(r.label),
        r.result.action,
        Number(r.planned_at_ms) - warmupMs,
        `${source}: results[${i}]`,
        r.expectation,
      ),
    );
  });
  return finish({
    kind: 'scenario',
    name: String(s.name ?? 'scenario'),
    seed: seedOf(s.seed, source),
    faults,
    report,
    source,
    file: typeof s.file === 'string' ? s.file : undefined,
  });
}

function fromSurvival(s: Record<string, unknown>, source: string): ShrinkInput {
  if (s.status !== 'failed')
    throw new UsageError(
      `${source}: the survival run did not fail (status ${String(s.status)}); there is nothing to shrink`,
      { code: 'report_not_failing' },
    );
  assertWholeTimeline(s, source);
  const timeline = Array.isArray(s.timeline) ? s.timeline : [];
  const faults = timeline.map((t, i) => {
    if (!isPlainObject(t))
      throw new UsageError(`${source}: survival.timeline[${i}] is not an object`, { code: 'invalid_report' });
    return toFault(
      i,
      `t${i}-${String(isPlainObject(t.action) ? t.action.type : 'action').replace(/_/g, '-')}`,
      t.action,
      Number(t.planned_at),
      `${source}: survival.timeline[${i}]`,
      'none',
    );
  });
  return finish({
    kind: 'survival',
    name: 'survival',
    seed: seedOf(s.seed, source),
    faults,
    report: s as unknown as ScenarioReport,
    source,
  });
}

function finish(p: {
  kind: ShrinkInput['kind'];
  name: string;
  seed: number;
  faults: ShrinkFault[];
  report: ScenarioReport;
  source: string;
  file?: string | undefined;
}): ShrinkInput {
  const failures = failuresOf(p.report);
  if (failures.length === 0)
    throw new UsageError(
      `${p.source}: the run failed without a failed expectation, invariant or gate (status ${p.report.status}${p.report.error ? `: ${p.report.error}` : ''}); shrink needs a failure it can recognise`,
      { code: 'report_not_failing' },
    );
  if (p.faults.length === 0)
    throw new UsageError(`${p.source}: the run has no fault to shrink`, { code: 'invalid_report' });
  return {
    kind: p.kind,
    name: p.name,
    seed: p.seed,
    faults: p.faults,
    signature: { failures, families: familiesOf(p.faults.map((f) => f.type)) },
    ...(p.report.gate ? { min_score: p.report.gate.min_score } : {}),
    ...(p.file !== undefined ? { file: p.file } : {}),
  };
}

function toFault(
  id: number,
  label: string,
  raw: unknown,
  at: number,
  at_path: string,
  expectation: unknown,
): ShrinkFault {
  let action: ReturnType<typeof parseAction>;
  try {
    action = parseAction(raw, 'action');
  } catch (err) {
    throw new UsageError(`${at_path}.${errorMessage(err).replace(/^invalid action: /, '')}`, {
      code: 'invalid_report',
    });
  }
  if (!Number.isFinite(at))
    throw new UsageError(`${at_path}: planned time must be a number`, { code: 'invalid_report' });
  const fault: ShrinkFault = { id, label, type: action.type, at_ms: Math.max(0, Math.round(at)) };
  if (action.target_id) fault.target_id = action.target_id;
  if (action.source_id) fault.source_id = action.source_id;
  if (action.metadata && Object.keys(action.metadata).length > 0) fault.metadata = { ...action.metadata };
  if (expectation === 'success') fault.expect_success = true;
  if (expectation === 'failure') fault.expect_failure = true;
  return fault;
}

function seedOf(value: unknown, source: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0)
    throw new UsageError(`${source}: seed must be a non-negative integer`, { code: 'invalid_report' });
  return value;
}
