/**
 * Reads a saved report (`--json` / `--report` output, schema_version 1) back
 * into an exact action timeline, for `arena replay`. Every recorded action is
 * validated again; problems name their path in the document.
 */
import { parseAction, isPlainObject } from '../actions.js';
import { UsageError, errorMessage } from '../../shared/errors.js';
import { assertWholeTimeline, type SurvivalTimelineEntry } from './run.js';
import { DEFAULT_COOLDOWN_MS, DEFAULT_WARMUP_MS, type Scenario, type ScenarioStep } from '../scenario/types.js';

export interface ReplayPlan {
  kind: 'scenario' | 'survival';
  name: string;
  seed: number;
  started_at?: string;
  strategy?: Record<string, unknown>;
  timeline: SurvivalTimelineEntry[];
  /** a scenario report replays as that scenario: each step's label and expectation, its window and gate */
  scenario?: {
    steps: Array<{ label: string; expectation: 'success' | 'failure' | 'none' }>;
    window?: { warmup_ms: number; cooldown_ms: number; timeout_ms?: number; recovery_deadline_ms?: number };
    min_score?: number;
  };
}

/** `pick` selects a scenario by name when the report holds several */
export function replayPlanFromReport(doc: unknown, source = 'report', pick?: string): ReplayPlan {
  if (!isPlainObject(doc))
    throw new UsageError(`${source}: not a report document (expected a JSON object)`, { code: 'invalid_report' });
  if (doc.schema_version !== 1) {
    throw new UsageError(
      `${source}: unsupported schema_version ${JSON.stringify(doc.schema_version)} (this arena reads 1)`,
      { code: 'invalid_report' },
    );
  }
  if (isPlainObject(doc.survival)) {
    const s = doc.survival;
    assertWholeTimeline(s, source);
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
        throw new UsageError(`${source}: no scenario named "${pick}" (it holds ${names.join(', ') || 'none'})`, {
          code: 'invalid_report',
        });
    } else if (scenarios.length !== 1) {
      throw new UsageError(
        `${source}: holds ${scenarios.length} scenarios (${names.join(', ')}); choose one with --scenario NAME`,
        { code: 'invalid_report' },
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
    // entries() sorted the timeline by planned time: the steps follow the same order
    const steps = (Array.isArray(ran) ? ran : [])
      .filter(isPlainObject)
      .map((r, i) => ({
        at: typeof r.planned_at_ms === 'number' ? r.planned_at_ms : 0,
        label: typeof r.label === 'string' && r.label !== '' ? r.label : `step-${i + 1}`,
        expectation: (r.expectation === 'success' || r.expectation === 'failure' ? r.expectation : 'none') as
          | 'success'
          | 'failure'
          | 'none',
      }))
      .sort((a, b) => a.at - b.at)
      .map(({ label, expectation }) => ({ label, expectation }));
    const w = s.window;
    const window =
      isPlainObject(w) && typeof w.warmup_ms === 'number' && typeof w.cooldown_ms === 'number'
        ? {
            warmup_ms: w.warmup_ms,
            cooldown_ms: w.cooldown_ms,
            ...(typeof w.timeout_ms === 'number' ? { timeout_ms: w.timeout_ms } : {}),
            ...(typeof w.recovery_deadline_ms === 'number' ? { recovery_deadline_ms: w.recovery_deadline_ms } : {}),
          }
        : undefined;
    const minScore = isPlainObject(s.gate) && typeof s.gate.min_score === 'number' ? s.gate.min_score : undefined;
    return {
      kind: 'scenario',
      name: names[index]!,
      seed: seedOf(s.seed, `${source}: scenarios[${index}].seed`),
      ...optional(s),
      timeline,
      scenario: {
        steps,
        ...(window ? { window } : {}),
        ...(minScore !== undefined ? { min_score: minScore } : {}),
      },
    };
  }
  throw new UsageError(`${source}: holds neither "survival" nor "scenarios"`, { code: 'invalid_report' });
}

function entries(
  list: unknown,
  at: string,
  fields: (item: Record<string, unknown>) => [unknown, unknown],
): SurvivalTimelineEntry[] {
  if (!Array.isArray(list)) throw new UsageError(`${at}: missing or not a list`, { code: 'invalid_report' });
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
    throw new UsageError(`cannot replay: ${problems.join('; ')}`, { code: 'invalid_report', details: problems });
  if (out.length === 0) throw new UsageError(`${at}: no action to replay`, { code: 'invalid_report' });
  return out.sort((a, b) => a.planned_at - b.planned_at);
}

function seedOf(value: unknown, at: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0)
    throw new UsageError(`${at}: must be a non-negative integer`, { code: 'invalid_report' });
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

/**
 * A scenario report replays as that scenario, not as a survival run: the same labels and expectations,
 * each action at its recorded time from the start of chaos (parallel, so one slow action does not shift
 * the next), the same window and gate. Undefined for a survival report.
 */
export function scenarioFromPlan(plan: ReplayPlan): Scenario | undefined {
  const recorded = plan.scenario;
  if (!recorded) return undefined;
  const window = recorded.window ?? { warmup_ms: DEFAULT_WARMUP_MS, cooldown_ms: DEFAULT_COOLDOWN_MS };
  const actions = plan.timeline.map((t, i): ScenarioStep => {
    const step = recorded.steps[i];
    const a = t.action;
    return {
      label: step?.label ?? `step-${i + 1}`,
      generated_label: false,
      delay_ms: Math.max(0, Math.round(t.planned_at - window.warmup_ms)),
      action: {
        type: a.type,
        ...(a.target_id ? { target_id: a.target_id } : {}),
        ...(a.source_id ? { source_id: a.source_id } : {}),
        ...(a.metadata && Object.keys(a.metadata).length > 0 ? { metadata: { ...a.metadata } } : {}),
      },
      ...(step?.expectation === 'success' ? { expect_success: true } : {}),
      ...(step?.expectation === 'failure' ? { expect_failure: true } : {}),
      depends_on: [],
    };
  });
  return {
    name: plan.name,
    tags: ['replay'],
    config: {
      stop_on_error: false,
      parallel_actions: true,
      max_concurrent: Math.max(1, actions.length),
      warmup_ms: window.warmup_ms,
      cooldown_ms: window.cooldown_ms,
      ...(window.timeout_ms !== undefined ? { timeout_ms: window.timeout_ms } : {}),
      ...('recovery_deadline_ms' in window && window.recovery_deadline_ms !== undefined
        ? { recovery_deadline_ms: window.recovery_deadline_ms }
        : {}),
      seed: plan.seed,
    },
    expect: recorded.min_score !== undefined ? { min_score: recorded.min_score } : {},
    actions,
  };
}
