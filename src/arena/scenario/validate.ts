/**
 * Scenario validation (DESIGN §4): every problem at once, each with a path
 * such as `actions[2].action.target_id`. The older format keeps working:
 * labels are optional (generated), `depends_on` optional.
 */
import type { z } from 'zod';
import { formatSegments, parseProblems } from '../../shared/zod-problems.js';
import { isPlainObject } from '../actions.js';
import { MAX_SCENARIO_ACTIONS, scenarioSchema, scenarioUnknownKey } from './schema.js';
import { normaliseStopWhen } from '../safety/stop-when.js';
import {
  DEFAULT_COOLDOWN_MS,
  DEFAULT_MAX_CONCURRENT,
  DEFAULT_WARMUP_MS,
  type Scenario,
  type ScenarioProblem,
  type ScenarioStep,
  type ScenarioValidation,
} from './types.js';

/** Problem paths as segments, so a loader can find the YAML node behind each. */
export interface RawProblem {
  segments: Array<string | number>;
  /** true when the problem is the key itself (unknown key), not its value */
  atKey?: boolean;
  message: string;
}

export { MAX_SCENARIO_ACTIONS };

export function formatPath(segments: ReadonlyArray<string | number>): string {
  return formatSegments(segments) || '(root)';
}

export function validateScenario(input: unknown, file?: string): ScenarioValidation {
  const { problems, scenario } = checkScenario(input);
  const errors: ScenarioProblem[] = problems.map((p) => ({ path: formatPath(p.segments), message: p.message }));
  if (errors.length > 0) return { valid: false, errors };
  if (file !== undefined) scenario!.file = file;
  return { valid: true, errors: [], scenario };
}

/** The shape (scenarioSchema), then the labels: every problem at once, each with its path. */
export function checkScenario(input: unknown): { problems: RawProblem[]; scenario?: Scenario } {
  // a bound on the work a scenario can cause (label checks, the cycle search, the run itself):
  // scenario texts come from request bodies too
  if (isPlainObject(input) && Array.isArray(input.actions) && input.actions.length > MAX_SCENARIO_ACTIONS) {
    return {
      problems: [
        {
          segments: ['actions'],
          message: `a scenario has at most ${MAX_SCENARIO_ACTIONS} actions (got ${input.actions.length})`,
        },
      ],
    };
  }
  const { data, problems } = parseProblems(scenarioSchema, input, { unknownKey: scenarioUnknownKey });
  const raw: RawProblem[] = [...problems];
  // label checks run on every item whose label and depends_on can be read,
  // even when other parts of it (or of other items) are invalid
  const add: Add = (segments, message) => raw.push({ segments, message });
  const items = isPlainObject(input) && Array.isArray(input.actions) ? input.actions : [];
  items.forEach((item, i) => {
    if (isPlainObject(item) && item.expect_success !== undefined && item.expect_failure !== undefined) {
      add(['actions', i, 'expect_failure'], 'expect_success and expect_failure cannot both be given: use one');
    }
  });
  const labels = checkLabels(items.map(labelEntry), add);
  if (raw.length > 0 || !data) return { problems: raw };
  return { problems: [], scenario: normalise(data, labels as string[]) };
}

/** The runner's view of a valid file: defaults filled in, durations in ms, labels given or generated. */
function normalise(file: z.output<typeof scenarioSchema>, labels: string[]): Scenario {
  const c = file.config ?? {};
  const config: Scenario['config'] = {
    stop_on_error: c.stop_on_error ?? false,
    parallel_actions: c.parallel_actions ?? false,
    max_concurrent: c.max_concurrent ?? DEFAULT_MAX_CONCURRENT,
    // a run always has a measured window (DESIGN §5): steady state before the first fault, recovery after the last
    warmup_ms: c.warmup ?? DEFAULT_WARMUP_MS,
    cooldown_ms: c.cooldown ?? DEFAULT_COOLDOWN_MS,
  };
  if (c.timeout !== undefined) config.timeout_ms = c.timeout;
  if (c.recovery_deadline !== undefined) config.recovery_deadline_ms = c.recovery_deadline;
  if (c.seed !== undefined) config.seed = c.seed;
  if (c.target !== undefined) config.target = c.target;
  if (c.stop_when !== undefined) config.stop_when = normaliseStopWhen(c.stop_when);
  if (c.max_affected !== undefined) config.max_affected = c.max_affected;
  const expect: Scenario['expect'] = {};
  if (file.expect?.min_score !== undefined) expect.min_score = file.expect.min_score;
  const actions = file.actions.map((raw, i): ScenarioStep => {
    const a = raw.action;
    const step: ScenarioStep = {
      label: raw.label === undefined ? labels[i]! : raw.label,
      generated_label: raw.label === undefined,
      delay_ms: raw.delay ?? 0,
      action: { type: a.type },
      depends_on: typeof raw.depends_on === 'string' ? [raw.depends_on] : (raw.depends_on ?? []),
    };
    if (typeof a.target_id === 'string') step.action.target_id = a.target_id;
    if (typeof a.source_id === 'string') step.action.source_id = a.source_id;
    if (isPlainObject(a.metadata)) step.action.metadata = { ...a.metadata };
    if (raw.expect_success !== undefined) step.expect_success = raw.expect_success;
    if (raw.expect_failure !== undefined) step.expect_failure = raw.expect_failure;
    return step;
  });
  const scenario: Scenario = { name: file.name.trim(), tags: file.tags ?? [], config, expect, actions };
  if (file.description !== undefined) scenario.description = file.description;
  return scenario;
}

type Add = (segments: Array<string | number>, message: string) => void;

/** What the label checks need from one item. */
interface LabelEntry {
  /** undefined when the item has no label, or it cannot be known */
  label: string | undefined;
  generated: boolean;
  /** true when the item may have a label that cannot be read (a non-string label, or none and no readable action type) */
  unreadable: boolean;
  depends: string[];
}

function labelEntry(raw: unknown, i: number): LabelEntry {
  if (!isPlainObject(raw)) return { label: undefined, generated: false, unreadable: false, depends: [] };
  // a malformed but present string label still names the item for duplicate and reference checks
  const rawType = isPlainObject(raw.action) && typeof raw.action.type === 'string' ? raw.action.type : undefined;
  const known =
    typeof raw.label === 'string'
      ? raw.label
      : raw.label === undefined && rawType !== undefined
        ? `${rawType}-${i + 1}`
        : undefined;
  const d = raw.depends_on;
  const depends =
    typeof d === 'string' ? [d] : Array.isArray(d) && d.every((x) => typeof x === 'string') ? (d as string[]) : [];
  return { label: known, generated: raw.label === undefined, unreadable: known === undefined, depends };
}

/**
 * Duplicate labels, unknown `depends_on` labels and cycles, over every item
 * whose label is known. Returns the final label of each item (generated ones
 * made unique against the given ones).
 */
function checkLabels(entries: LabelEntry[], add: Add): Array<string | undefined> {
  const labels: Array<string | undefined> = entries.map(() => undefined);
  const seen = new Map<string, number>();
  entries.forEach((e, i) => {
    if (e.generated || e.label === undefined) return;
    labels[i] = e.label;
    if (seen.has(e.label))
      add(['actions', i, 'label'], `duplicate label "${e.label}" (also actions[${seen.get(e.label)}])`);
    else seen.set(e.label, i);
  });
  // generated labels never collide with given ones
  entries.forEach((e, i) => {
    if (!e.generated || e.label === undefined) return;
    let label = e.label;
    while (seen.has(label)) label += '_';
    labels[i] = label;
    seen.set(label, i);
  });
  // an item whose label cannot be known might be the one a reference means
  const allKnown = entries.every((e) => !e.unreadable);
  entries.forEach((e, i) => {
    e.depends.forEach((d, j) => {
      if (d === labels[i]) add(['actions', i, 'depends_on', j], `"${d}" depends on itself`);
      else if (!seen.has(d) && allKnown)
        add(['actions', i, 'depends_on', j], `unknown label "${d}" (labels: ${labelList(seen)})`);
    });
  });
  const cycle = findCycle(entries, labels, seen);
  if (cycle) add(['actions', cycle.index, 'depends_on'], `depends_on cycle: ${cycle.path.join(' → ')}`);
  return labels;
}

/** the known labels for a message, cut short: one per unknown reference would grow with the square of the scenario */
function labelList(seen: Map<string, number>): string {
  const all = [...seen.keys()];
  return all.length <= 20 ? all.join(', ') : `${all.slice(0, 20).join(', ')}, … ${all.length - 20} more`;
}

function findCycle(
  entries: LabelEntry[],
  labels: Array<string | undefined>,
  index: Map<string, number>,
): { index: number; path: string[] } | undefined {
  const state = new Map<string, 'visiting' | 'done'>();
  const stack: string[] = [];
  const visit = (label: string): string[] | undefined => {
    if (state.get(label) === 'done') return undefined;
    if (state.get(label) === 'visiting') return [...stack.slice(stack.indexOf(label)), label];
    state.set(label, 'visiting');
    stack.push(label);
    const entry = entries[index.get(label)!]!;
    for (const d of entry.depends) {
      if (!index.has(d) || d === label) continue;
      const found = visit(d);
      if (found) return found;
    }
    stack.pop();
    state.set(label, 'done');
    return undefined;
  };
  for (const label of labels) {
    if (label === undefined) continue;
    const path = visit(label);
    if (path) return { index: index.get(path[0]!)!, path };
  }
  return undefined;
}
