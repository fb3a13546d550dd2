/**
 * Scenario validation (DESIGN §4): every problem at once, each with a path
 * such as `actions[2].action.target_id`. The older format keeps working:
 * labels are optional (generated), `depends_on` optional.
 */
import { durationProblem, tryParseDuration } from '../../shared/duration.js';
import { actionProblems, isPlainObject } from '../actions.js';
import type { ActionType } from '../action.js';
import { RANDOM_TARGET } from './schedule.js';
import { DEFAULT_MAX_CONCURRENT, type Scenario, type ScenarioProblem, type ScenarioStep, type ScenarioValidation } from './types.js';

/** Problem paths as segments, so a loader can find the YAML node behind each. */
export interface RawProblem {
  segments: Array<string | number>;
  /** true when the problem is the key itself (unknown key), not its value */
  atKey?: boolean;
  message: string;
}

const TOP_KEYS = ['name', 'description', 'tags', 'config', 'expect', 'actions'];
const CONFIG_KEYS = ['stop_on_error', 'parallel_actions', 'max_concurrent', 'timeout', 'warmup', 'cooldown', 'recovery_deadline', 'seed', 'target'];
const EXPECT_KEYS = ['min_score'];
export const MAX_SCENARIO_ACTIONS = 1000;
const STEP_KEYS = ['label', 'delay', 'action', 'expect_success', 'expect_failure', 'depends_on', 'description'];
const LABEL = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

export function formatPath(segments: ReadonlyArray<string | number>): string {
  let out = '';
  for (const s of segments) out += typeof s === 'number' ? `[${s}]` : out === '' ? s : `.${s}`;
  return out || '(root)';
}

export function validateScenario(input: unknown, file?: string): ScenarioValidation {
  const { problems, scenario } = checkScenario(input);
  const errors: ScenarioProblem[] = problems.map((p) => ({ path: formatPath(p.segments), message: p.message }));
  if (errors.length > 0) return { valid: false, errors };
  if (file !== undefined) scenario!.file = file;
  return { valid: true, errors: [], scenario };
}

export function checkScenario(input: unknown): { problems: RawProblem[]; scenario?: Scenario } {
  const problems: RawProblem[] = [];
  const add = (segments: Array<string | number>, message: string, atKey = false) => problems.push({ segments, message, atKey });
  if (!isPlainObject(input)) {
    add([], 'a scenario must be a mapping with at least "name" and "actions"');
    return { problems };
  }
  unknownKeys(input, TOP_KEYS, [], add);

  if (typeof input.name !== 'string' || input.name.trim() === '') add(['name'], 'required: a non-empty string');
  if (input.description !== undefined && typeof input.description !== 'string') add(['description'], 'must be a string');
  if (input.tags !== undefined && (!Array.isArray(input.tags) || input.tags.some((t) => typeof t !== 'string'))) {
    add(['tags'], 'must be a list of strings');
  }

  const config = readConfig(input.config, add);
  const expect: Scenario['expect'] = {};
  if (input.expect !== undefined) {
    if (!isPlainObject(input.expect)) add(['expect'], 'must be a mapping');
    else {
      unknownKeys(input.expect, EXPECT_KEYS, ['expect'], add);
      const min = input.expect.min_score;
      if (min !== undefined) {
        if (typeof min !== 'number' || !Number.isFinite(min) || min < 0 || min > 100) add(['expect', 'min_score'], 'must be a number from 0 to 100');
        else expect.min_score = min;
      }
    }
  }

  const steps: ScenarioStep[] = [];
  if (!Array.isArray(input.actions)) {
    add(['actions'], input.actions === undefined ? 'required: a list of actions' : 'must be a list of actions');
  } else {
    if (input.actions.length === 0) add(['actions'], 'must contain at least one action');
  }
  // a bound on the work a scenario can cause (label checks, the cycle search, the run itself):
  // scenario texts come from request bodies too
  if (Array.isArray(input.actions) && input.actions.length > MAX_SCENARIO_ACTIONS) {
    add(['actions'], `a scenario has at most ${MAX_SCENARIO_ACTIONS} actions (got ${input.actions.length})`);
  } else if (Array.isArray(input.actions)) {
    // label checks run on every item whose label and depends_on can be read,
    // even when other parts of it (or of other items) are invalid
    const entries: LabelEntry[] = [];
    input.actions.forEach((raw, i) => {
      const { entry, step } = readStep(raw, i, add);
      entries.push(entry);
      if (step) steps.push(step);
    });
    const labels = checkLabels(entries, add);
    if (steps.length === input.actions.length) steps.forEach((s, i) => (s.label = labels[i]!));
  }

  if (problems.length > 0) return { problems };
  const scenario: Scenario = {
    name: (input.name as string).trim(),
    tags: (input.tags as string[] | undefined) ?? [],
    config,
    expect,
    actions: steps,
  };
  if (typeof input.description === 'string') scenario.description = input.description;
  return { problems, scenario };
}

type Add = (segments: Array<string | number>, message: string, atKey?: boolean) => void;

function unknownKeys(obj: Record<string, unknown>, allowed: readonly string[], base: Array<string | number>, add: Add): void {
  for (const key of Object.keys(obj)) {
    if (!allowed.includes(key)) add([...base, key], `unknown key "${key}" (allowed: ${allowed.join(', ')})`, true);
  }
}

function duration(value: unknown, segments: Array<string | number>, add: Add): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'number' && value < 0) {
    add(segments, `must not be negative (got ${value})`);
    return undefined;
  }
  if (typeof value === 'string' && value.trim().startsWith('-')) {
    add(segments, `must not be negative (got ${JSON.stringify(value)})`);
    return undefined;
  }
  const ms = tryParseDuration(value);
  if (ms === undefined) add(segments, durationProblem(value)!);
  return ms;
}

function readConfig(raw: unknown, add: Add): Scenario['config'] {
  const config: Scenario['config'] = { stop_on_error: false, parallel_actions: false, max_concurrent: DEFAULT_MAX_CONCURRENT, warmup_ms: 0, cooldown_ms: 0 };
  if (raw === undefined || raw === null) return config;
  if (!isPlainObject(raw)) {
    add(['config'], 'must be a mapping');
    return config;
  }
  unknownKeys(raw, CONFIG_KEYS, ['config'], add);
  for (const key of ['stop_on_error', 'parallel_actions'] as const) {
    if (raw[key] !== undefined) {
      if (typeof raw[key] !== 'boolean') add(['config', key], 'must be true or false');
      else config[key] = raw[key] as boolean;
    }
  }
  if (raw.max_concurrent !== undefined) {
    const n = raw.max_concurrent;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 1) add(['config', 'max_concurrent'], 'must be an integer ≥ 1');
    else config.max_concurrent = n;
  }
  if (raw.target !== undefined) {
    if (typeof raw.target !== 'string' || raw.target.trim() === '') add(['config', 'target'], 'must be the path of a target file (relative to this scenario file)');
    else config.target = raw.target;
  }
  if (raw.seed !== undefined) {
    const s = raw.seed;
    if (typeof s !== 'number' || !Number.isInteger(s) || s < 0 || s > 0xffffffff) add(['config', 'seed'], 'must be a non-negative integer');
    else config.seed = s;
  }
  const timeout = duration(raw.timeout, ['config', 'timeout'], add);
  if (timeout !== undefined) {
    if (timeout === 0) add(['config', 'timeout'], 'must be greater than 0');
    else config.timeout_ms = timeout;
  }
  config.warmup_ms = duration(raw.warmup, ['config', 'warmup'], add) ?? 0;
  config.cooldown_ms = duration(raw.cooldown, ['config', 'cooldown'], add) ?? 0;
  const deadline = duration(raw.recovery_deadline, ['config', 'recovery_deadline'], add);
  if (deadline !== undefined) config.recovery_deadline_ms = deadline;
  return config;
}

/** What the label checks need from one item. */
interface LabelEntry {
  /** undefined when the item has no label, or it cannot be known */
  label: string | undefined;
  generated: boolean;
  /** true when the item may have a label that cannot be read (a non-string label, or none and no readable action type) */
  unreadable: boolean;
  depends: string[];
}

function readStep(raw: unknown, i: number, report: Add): { entry: LabelEntry; step?: ScenarioStep } {
  let bad = 0;
  const add: Add = (segments, message, atKey) => {
    bad += 1;
    report(segments, message, atKey);
  };
  const base: Array<string | number> = ['actions', i];
  if (!isPlainObject(raw)) {
    add(base, 'must be a mapping with an "action"');
    return { entry: { label: undefined, generated: false, unreadable: false, depends: [] } };
  }
  unknownKeys(raw, STEP_KEYS, base, add);
  let label = '';
  if (raw.label !== undefined) {
    if (typeof raw.label !== 'string' || !LABEL.test(raw.label)) add([...base, 'label'], 'must be a word of letters, digits, "-", "_" or "."');
    else label = raw.label;
  }
  // a malformed but present string label still names the item for duplicate and reference checks
  const rawType = isPlainObject(raw.action) && typeof raw.action.type === 'string' ? raw.action.type : undefined;
  const known = typeof raw.label === 'string' ? raw.label : raw.label === undefined && rawType !== undefined ? `${rawType}-${i + 1}` : undefined;
  const entry: LabelEntry = { label: known, generated: raw.label === undefined, unreadable: known === undefined, depends: [] };
  const delay = duration(raw.delay, [...base, 'delay'], add) ?? 0;
  for (const key of ['expect_success', 'expect_failure'] as const) {
    if (raw[key] !== undefined && typeof raw[key] !== 'boolean') add([...base, key], 'must be true or false');
  }
  if (raw.expect_success !== undefined && raw.expect_failure !== undefined) {
    add([...base, 'expect_failure'], 'expect_success and expect_failure cannot both be given: use one');
  }
  let depends: string[] = [];
  if (raw.depends_on !== undefined) {
    if (typeof raw.depends_on === 'string') depends = [raw.depends_on];
    else if (Array.isArray(raw.depends_on) && raw.depends_on.every((d) => typeof d === 'string')) depends = raw.depends_on as string[];
    else add([...base, 'depends_on'], 'must be a list of labels');
  }
  entry.depends = depends;
  if (raw.action === undefined) add([...base, 'action'], 'required: the fault to inject, e.g. { type: kill_agent, target_id: agent-2 }');
  else {
    for (const p of actionProblems(raw.action, 'action')) {
      add([...base, ...p.path.split('.')], p.message, p.message.startsWith('unknown key') || p.message.startsWith('unknown parameter'));
    }
    const a = raw.action;
    // `random` is resolved to a running worker at run time; a DAG fault would get an agent id as its node
    if (isPlainObject(a) && a.target_id === RANDOM_TARGET && (a.type === 'remove_node' || a.type === 'remove_edge')) {
      add([...base, 'action', 'target_id'], `"${RANDOM_TARGET}" picks a running agent; ${String(a.type)} needs a DAG node id`);
    }
  }
  if (bad > 0) return { entry };
  const a = raw.action as Record<string, unknown>;
  const type = a.type as ActionType;
  const step: ScenarioStep = {
    label,
    generated_label: label === '',
    delay_ms: delay,
    action: { type },
    depends_on: depends,
  };
  if (typeof a.target_id === 'string') step.action.target_id = a.target_id;
  if (typeof a.source_id === 'string') step.action.source_id = a.source_id;
  if (isPlainObject(a.metadata)) step.action.metadata = { ...a.metadata };
  if (raw.expect_success !== undefined) step.expect_success = raw.expect_success as boolean;
  if (raw.expect_failure !== undefined) step.expect_failure = raw.expect_failure as boolean;
  return { entry, step };
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
    if (seen.has(e.label)) add(['actions', i, 'label'], `duplicate label "${e.label}" (also actions[${seen.get(e.label)}])`);
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
      else if (!seen.has(d) && allKnown) add(['actions', i, 'depends_on', j], `unknown label "${d}" (labels: ${labelList(seen)})`);
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

function findCycle(entries: LabelEntry[], labels: Array<string | undefined>, index: Map<string, number>): { index: number; path: string[] } | undefined {
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
