import { isDeepFrozen } from '../shared/deep-freeze.js';
import { UsageError } from '../shared/errors.js';
import { formatSourceProblems } from '../shared/yaml-source.js';
import { formatSegments, parseProblems } from '../shared/zod-problems.js';
import { MAX_STEPS, workflowSchema, workflowUnknownKey } from './schema.js';
import type { WorkflowDefinition } from './types.js';

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

export { MAX_STEPS };

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Checks a definition (possibly straight from YAML/JSON) and reports every
 * problem at once: the shape (workflowSchema: types, unknown keys, ranges),
 * then what a shape cannot say: duplicate step ids, unknown dependencies or
 * output step, dependency cycles, unregistered agent types.
 */
export function validateWorkflow(value: unknown, options: ValidateOptions = {}): WorkflowValidation {
  // a bound on the work before any is done: the schema would look at every step first
  if (isRecord(value) && Array.isArray(value.steps) && value.steps.length > MAX_STEPS) {
    return {
      valid: false,
      errors: [{ path: 'steps', message: `a workflow has at most ${MAX_STEPS} steps (got ${value.steps.length})` }],
    };
  }
  const { problems } = parseProblems(workflowSchema, value, { unknownKey: workflowUnknownKey });
  const errors: WorkflowProblem[] = problems.map((p) => ({ path: formatSegments(p.segments), message: p.message }));
  errors.push(...workflowRelationProblems(value, options));
  return { valid: errors.length === 0, errors };
}

/** What the schema cannot check, on whatever can be read of `value` (a client config checks its workflows with it too). */
export function workflowRelationProblems(value: unknown, options: ValidateOptions = {}): WorkflowProblem[] {
  return isRecord(value) && Array.isArray(value.steps) ? relationProblems(value.steps, value.output_step, options) : [];
}

/** Relations between steps, on every step whose id and dependencies can be read, even when other parts are invalid. */
function relationProblems(steps: unknown[], outputStep: unknown, options: ValidateOptions): WorkflowProblem[] {
  const errors: WorkflowProblem[] = [];
  const add = (path: string, message: string) => errors.push({ path, message });
  const ids = new Map<string, number>();
  steps.forEach((step, i) => {
    if (!isRecord(step)) return;
    const at = `steps[${i}]`;
    if (typeof step.id === 'string' && step.id.trim() !== '') {
      if (ids.has(step.id))
        add(`${at}.id`, `duplicate step id '${step.id}' (first used at steps[${ids.get(step.id)}])`);
      else ids.set(step.id, i);
    }
    if (
      options.registry &&
      typeof step.agent_type === 'string' &&
      step.agent_type.trim() !== '' &&
      !options.registry.has(step.agent_type)
    ) {
      const known = options.registry.types();
      add(`${at}.agent_type`, `unknown agent type '${step.agent_type}' (registered: ${known.join(', ') || 'none'})`);
    }
    if (Array.isArray(step.depends_on)) {
      const seen = new Set<string>();
      step.depends_on.forEach((dep, j) => {
        if (typeof dep !== 'string') return;
        if (seen.has(dep)) add(`${at}.depends_on[${j}]`, `'${dep}' is listed twice`);
        seen.add(dep);
      });
    }
  });
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
  if (typeof outputStep === 'string' && !ids.has(outputStep)) add('output_step', `unknown step '${outputStep}'`);
  return errors;
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
    deps.set(
      s.id,
      Array.isArray(s.depends_on) ? s.depends_on.filter((d): d is string => typeof d === 'string' && d !== s.id) : [],
    );
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

/**
 * Definitions that passed every check but the registry's, kept only when frozen all the way down, so
 * they cannot have changed since. The embedded runtime runs the same frozen DAG 20 times a second:
 * timed in place at 40 runs/s, its checks took 100-104 ms of every 12 s, and 7.5 ms once remembered.
 */
const sound = new WeakSet<object>();

/** Validates and returns the typed definition, or throws a UsageError listing every problem. */
export function assertValidWorkflow(
  value: unknown,
  options: ValidateOptions = {},
  source?: string,
): WorkflowDefinition {
  if (
    isRecord(value) &&
    sound.has(value) &&
    registryKnowsEvery(value as unknown as WorkflowDefinition, options.registry)
  )
    return value as unknown as WorkflowDefinition;
  const { valid, errors } = validateWorkflow(value, options);
  if (!valid) throw invalidWorkflowError(errors, source);
  if (isRecord(value) && isDeepFrozen(value)) sound.add(value);
  return value as WorkflowDefinition;
}

function registryKnowsEvery(def: WorkflowDefinition, registry: ValidateOptions['registry']): boolean {
  return !registry || def.steps.every((step) => registry.has(step.agent_type));
}

export function invalidWorkflowError(errors: WorkflowProblem[], source?: string): UsageError {
  const label = source ? `invalid workflow (${source})` : 'invalid workflow';
  return new UsageError(
    `${label}: ${errors.length} problem${errors.length === 1 ? '' : 's'}\n${formatProblems(errors, source)}`,
    { code: 'invalid_workflow', details: { errors } },
  );
}
