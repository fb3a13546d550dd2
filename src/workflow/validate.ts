import { UsageError } from '../shared/errors.js';
import { formatSourceProblems } from '../shared/yaml-source.js';
import { RECOVERY_STRATEGY, type WorkflowDefinition } from './types.js';

/** One problem in a workflow definition; `path` is like `steps[2].depends_on[0]`. */
export interface WorkflowProblem {
  path: string;
  message: string;
  line?: number;
  column?: number;
}

export interface WorkflowValidation {
  valid: boolean;
  errors: WorkflowProblem[];
}

export interface ValidateOptions {
  /** when given, every step's agent_type must be registered */
  registry?: { has(type: string): boolean; types(): string[] };
}

const WORKFLOW_KEYS = new Set(['id', 'name', 'description', 'steps', 'recovery', 'max_parallel', 'timeout_ms', 'output_step']);
export const MAX_STEPS = 500;
const STEP_KEYS = new Set(['id', 'agent_type', 'depends_on', 'input', 'timeout_ms', 'retries']);
const STRATEGIES = Object.values(RECOVERY_STRATEGY) as string[];

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Checks a definition (possibly straight from YAML/JSON) and reports every
 * problem at once: shape, unknown keys, duplicate step ids, unknown
 * dependencies or output step, dependency cycles, unregistered agent types.
 */
export function validateWorkflow(value: unknown, options: ValidateOptions = {}): WorkflowValidation {
  const errors: WorkflowProblem[] = [];
  const add = (path: string, message: string) => errors.push({ path, message });
  if (!isRecord(value)) {
    add('', 'a workflow must be an object with `id` and `steps`');
    return { valid: false, errors };
  }
  for (const key of Object.keys(value)) {
    if (!WORKFLOW_KEYS.has(key)) add(key, `unknown key '${key}' (allowed: ${[...WORKFLOW_KEYS].join(', ')})`);
  }
  if (typeof value.id !== 'string' || value.id.trim() === '') add('id', 'required: a non-empty string');
  for (const key of ['name', 'description'] as const) {
    if (value[key] !== undefined && typeof value[key] !== 'string') add(key, 'must be a string');
  }
  if (value.recovery !== undefined && !STRATEGIES.includes(value.recovery as string)) {
    add('recovery', `must be one of ${STRATEGIES.join(', ')} (got ${JSON.stringify(value.recovery)})`);
  }
  checkCount(value.max_parallel, 'max_parallel', 1, add);
  checkCount(value.timeout_ms, 'timeout_ms', 1, add);

  const ids = new Map<string, number>();
  const steps = value.steps;
  if (!Array.isArray(steps)) {
    add('steps', 'required: a list of steps');
  } else {
    if (steps.length === 0) add('steps', 'a workflow needs at least one step');
    // a bound on the work a definition can cause: validation, cycle search and every run are per step
    if (steps.length > MAX_STEPS) {
      add('steps', `a workflow has at most ${MAX_STEPS} steps (got ${steps.length})`);
      return { valid: false, errors };
    }
    steps.forEach((step, i) => checkStep(step, i, ids, options, add));
    for (const [i, step] of steps.entries()) {
      if (!isRecord(step) || !Array.isArray(step.depends_on)) continue;
      step.depends_on.forEach((dep, j) => {
        if (typeof dep === 'string' && !ids.has(dep)) add(`steps[${i}].depends_on[${j}]`, `unknown step '${dep}'`);
        if (dep === step.id) add(`steps[${i}].depends_on[${j}]`, `step '${dep}' depends on itself`);
      });
    }
    for (const cycle of findCycles(steps)) {
      add(`steps[${cycle.index}].depends_on`, `dependency cycle: ${cycle.path.join(' → ')}`);
    }
  }
  if (value.output_step !== undefined) {
    if (typeof value.output_step !== 'string') add('output_step', 'must be a step id');
    else if (Array.isArray(steps) && !ids.has(value.output_step)) add('output_step', `unknown step '${value.output_step}'`);
  }
  return { valid: errors.length === 0, errors };
}

function checkStep(
  step: unknown,
  i: number,
  ids: Map<string, number>,
  options: ValidateOptions,
  add: (path: string, message: string) => void,
): void {
  const at = `steps[${i}]`;
  if (!isRecord(step)) {
    add(at, 'a step must be an object with `id` and `agent_type`');
    return;
  }
  for (const key of Object.keys(step)) {
    if (!STEP_KEYS.has(key)) add(`${at}.${key}`, `unknown key '${key}' (allowed: ${[...STEP_KEYS].join(', ')})`);
  }
  if (typeof step.id !== 'string' || step.id.trim() === '') {
    add(`${at}.id`, 'required: a non-empty string');
  } else if (ids.has(step.id)) {
    add(`${at}.id`, `duplicate step id '${step.id}' (first used at steps[${ids.get(step.id)}])`);
  } else {
    ids.set(step.id, i);
  }
  if (typeof step.agent_type !== 'string' || step.agent_type.trim() === '') {
    add(`${at}.agent_type`, 'required: a non-empty string');
  } else if (options.registry && !options.registry.has(step.agent_type)) {
    const known = options.registry.types();
    add(`${at}.agent_type`, `unknown agent type '${step.agent_type}' (registered: ${known.join(', ') || 'none'})`);
  }
  if (step.depends_on !== undefined) {
    if (!Array.isArray(step.depends_on)) add(`${at}.depends_on`, 'must be a list of step ids');
    else {
      const seen = new Set<string>();
      step.depends_on.forEach((dep, j) => {
        if (typeof dep !== 'string') add(`${at}.depends_on[${j}]`, 'must be a step id (string)');
        else if (seen.has(dep)) add(`${at}.depends_on[${j}]`, `'${dep}' is listed twice`);
        else seen.add(dep);
      });
    }
  }
  checkCount(step.timeout_ms, `${at}.timeout_ms`, 1, add);
  checkCount(step.retries, `${at}.retries`, 0, add);
}

function checkCount(v: unknown, path: string, min: number, add: (path: string, message: string) => void): void {
  if (v === undefined) return;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min) add(path, `must be an integer ≥ ${min} (got ${JSON.stringify(v)})`);
}

/** cycles reported at most (each costs a path as long as the cycle) */
const MAX_CYCLES = 10;

/**
 * Each distinct cycle once (at most MAX_CYCLES), reported at the step where it
 * was entered. Depth-first with an explicit stack: a definition is user input,
 * and a chain of thousands of steps must not overflow the call stack.
 */
function findCycles(steps: unknown[]): Array<{ index: number; path: string[] }> {
  const index = new Map<string, number>();
  const deps = new Map<string, string[]>();
  steps.forEach((s, i) => {
    if (!isRecord(s) || typeof s.id !== 'string' || index.has(s.id)) return;
    index.set(s.id, i);
    deps.set(s.id, Array.isArray(s.depends_on) ? s.depends_on.filter((d): d is string => typeof d === 'string' && d !== s.id) : []);
  });
  const state = new Map<string, 'visiting' | 'done'>();
  const path: string[] = [];
  const cycles: Array<{ index: number; path: string[] }> = [];
  const seenKeys = new Set<string>();
  for (const start of deps.keys()) {
    if (state.has(start)) continue;
    // frames: a step and the position of the next dependency to look at
    const frames: Array<{ id: string; next: number }> = [{ id: start, next: 0 }];
    state.set(start, 'visiting');
    path.push(start);
    while (frames.length > 0) {
      const frame = frames[frames.length - 1]!;
      const list = deps.get(frame.id)!;
      if (frame.next >= list.length) {
        frames.pop();
        path.pop();
        state.set(frame.id, 'done');
        continue;
      }
      const dep = list[frame.next++]!;
      if (!deps.has(dep)) continue;
      const s = state.get(dep);
      if (s === 'visiting') {
        if (cycles.length >= MAX_CYCLES) continue;
        const cycle = path.slice(path.lastIndexOf(dep));
        const key = [...cycle].sort().join('\u0000');
        if (!seenKeys.has(key)) {
          seenKeys.add(key);
          cycles.push({ index: index.get(dep)!, path: [...cycle, dep] });
        }
      } else if (s === undefined) {
        state.set(dep, 'visiting');
        path.push(dep);
        frames.push({ id: dep, next: 0 });
      }
    }
  }
  return cycles;
}

/** `  file:line:col path: message` per problem — the same formatter as client config and strategy files */
export const formatProblems: (problems: WorkflowProblem[], source?: string) => string = formatSourceProblems;

/** Validates and returns the typed definition, or throws a UsageError listing every problem. */
export function assertValidWorkflow(value: unknown, options: ValidateOptions = {}, source?: string): WorkflowDefinition {
  const { valid, errors } = validateWorkflow(value, options);
  if (!valid) throw invalidWorkflowError(errors, source);
  return value as WorkflowDefinition;
}

export function invalidWorkflowError(errors: WorkflowProblem[], source?: string): UsageError {
  const label = source ? `invalid workflow (${source})` : 'invalid workflow';
  return new UsageError(`${label}: ${errors.length} problem${errors.length === 1 ? '' : 's'}\n${formatProblems(errors, source)}`, 'invalid_workflow', {
    details: { errors },
  });
}
