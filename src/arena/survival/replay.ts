/**
 * Reads a saved report (`--json` / `--report` output, schema_version 1) back
 * into an exact action timeline, for `arena replay`. Every recorded action is
 * validated again; problems name their path in the document.
 */
import { parseAction, isPlainObject } from '../actions.js';
import { UsageError, errorMessage } from '../../shared/errors.js';
import type { SurvivalTimelineEntry } from './run.js';

export interface ReplayPlan {
  kind: 'scenario' | 'survival';
  name: string;
  seed: number;
  started_at?: string;
  strategy?: Record<string, unknown>;
  timeline: SurvivalTimelineEntry[];
}

/** `pick` selects a scenario by name when the report holds several */
export function replayPlanFromReport(doc: unknown, source = 'report', pick?: string): ReplayPlan {
  if (!isPlainObject(doc))
    throw new UsageError(`${source}: not a report document (expected a JSON object)`, 'invalid_report');
  if (doc.schema_version !== 1) {
    throw new UsageError(
      `${source}: unsupported schema_version ${JSON.stringify(doc.schema_version)} (this arena reads 1)`,
      'invalid_report',
    );
  }
  if (isPlainObject(doc.survival)) {
    const s = doc.survival;
    const timeline = entries(s.timeline, `${source}: survival.timeline`, (t) => [t.planned_at, t.action]);
    // a survival run has no name of its own: it is "survival", as its run.started event says
    return {
      kind: 'survival',
      name: 'survival',
      seed: seedOf(s.seed, `${source}: survival.seed`),
      ...optional(s),
      timeline,
    };
  }
  if (Array.isArray(doc.scenarios)) {
    const scenarios = doc.scenarios.filter(isPlainObject);
    const names = scenarios.map((s) => String(s.name));
    let index = 0;
    if (pick !== undefined) {
      index = names.indexOf(pick);
      if (index < 0)
        throw new UsageError(
          `${source}: no scenario named "${pick}" (it holds ${names.join(', ') || 'none'})`,
          'invalid_report',
        );
    } else if (scenarios.length !== 1) {
      throw new UsageError(
        `${source}: holds ${scenarios.length} scenarios (${names.join(', ')}); choose one with --scenario NAME`,
        'invalid_report',
      );
    }
    const s = scenarios[index]!;
    // actions skipped by the scenario (a failed dependency, stop_on_error) never ran: nothing to replay
    const ran = Array.isArray(s.results)
      ? s.results.filter((r) => !(isPlainObject(r) && isPlainObject(r.result) && isSkipped(r.result)))
      : s.results;
    const timeline = entries(ran, `${source}: scenarios[${index}].results`, (r) => [
      r.planned_at_ms,
      isPlainObject(r.result) ? r.result.action : undefined,
    ]);
    return {
      kind: 'scenario',
      name: names[index]!,
      seed: seedOf(s.seed, `${source}: scenarios[${index}].seed`),
      ...optional(s),
      timeline,
    };
  }
  throw new UsageError(`${source}: holds neither "survival" nor "scenarios"`, 'invalid_report');
}

function entries(
  list: unknown,
  at: string,
  fields: (item: Record<string, unknown>) => [unknown, unknown],
): SurvivalTimelineEntry[] {
  if (!Array.isArray(list)) throw new UsageError(`${at}: missing or not a list`, 'invalid_report');
  const problems: string[] = [];
  const out: SurvivalTimelineEntry[] = [];
  list.forEach((item, i) => {
    if (!isPlainObject(item)) return problems.push(`${at}[${i}]: not an object`);
    const [planned, action] = fields(item);
    if (typeof planned !== 'number' || !Number.isFinite(planned) || planned < 0)
      problems.push(`${at}[${i}]: planned time must be a non-negative number`);
    try {
      out.push({ planned_at: Number(planned), action: parseAction(action, 'action') });
    } catch (err) {
      problems.push(`${at}[${i}].${errorMessage(err).replace(/^invalid action: /, '')}`);
    }
  });
  if (problems.length > 0)
    throw new UsageError(`cannot replay: ${problems.join('; ')}`, 'invalid_report', { details: problems });
  if (out.length === 0) throw new UsageError(`${at}: no action to replay`, 'invalid_report');
  return out.sort((a, b) => a.planned_at - b.planned_at);
}

function seedOf(value: unknown, at: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0)
    throw new UsageError(`${at}: must be a non-negative integer`, 'invalid_report');
  return value;
}

function optional(s: Record<string, unknown>): Pick<ReplayPlan, 'started_at' | 'strategy'> {
  return {
    ...(typeof s.started_at === 'string' ? { started_at: s.started_at } : {}),
    ...(isPlainObject(s.strategy) && Object.keys(s.strategy).length > 0 ? { strategy: s.strategy } : {}),
  };
}

function isSkipped(result: Record<string, unknown>): boolean {
  return (
    result.success === false &&
    result.duration_ms === 0 &&
    typeof result.error === 'string' &&
    result.error.startsWith('skipped:')
  );
}
