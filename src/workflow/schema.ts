/**
 * A workflow definition (a file, a config section or an HTTP body), described
 * once (zod): it checks the shape of every field with its path, and it is the
 * published JSON Schema (`arena schema workflow`). What a shape cannot say —
 * duplicate step ids, unknown dependencies, cycles, registered agent types —
 * is checked after it, in validate.ts.
 */
import { z } from 'zod';
import { publishedJsonSchema } from '../shared/json-schema.js';
import { says } from '../shared/zod-problems.js';
import { RECOVERY_STRATEGY, type WorkflowDefinition } from './types.js';

/** a bound on the work a definition can cause: validation, cycle search and every run are per step */
export const MAX_STEPS = 500;

const STRATEGIES = Object.values(RECOVERY_STRATEGY);

const required = says('required: a non-empty string');
const nonEmpty = z.string(required).refine((s) => s.trim() !== '', required);
const text = z.string(says('must be a string'));
const atLeast = (min: number) => {
  const words = says((v) => `must be an integer ≥ ${min} (got ${JSON.stringify(v)})`);
  return z.number(words).int(words).min(min, words);
};
/** the message for a value that is not a mapping; other issues of the mapping keep theirs */
const notMapping = (message: string) => ({
  error: (iss: { code?: string }) => (iss.code === 'invalid_type' ? message : undefined),
});

export const stepSchema = z.strictObject(
  {
    id: nonEmpty.describe('unique within the workflow'),
    agent_type: nonEmpty.describe('a type registered in the agent registry (built in: echo, llm, agent, retrieve)'),
    depends_on: z
      .array(z.string(says('must be a step id (string)')), says('must be a list of step ids'))
      .optional()
      .describe('ids of the steps that run first'),
    input: z.unknown().optional().describe('static input handed to the agent as ctx.step.input'),
    timeout_ms: atLeast(1).optional().describe('per-attempt timeout in milliseconds'),
    retries: atLeast(0).optional().describe('extra attempts after the first failure (ignored under fail_fast)'),
  },
  notMapping('a step must be an object with `id` and `agent_type`'),
);

export const workflowSchema = z.strictObject(
  {
    id: nonEmpty,
    name: text.optional(),
    description: text.optional(),
    steps: z
      .array(
        stepSchema,
        says((v) =>
          Array.isArray(v)
            ? `a workflow has at most ${MAX_STEPS} steps (got ${v.length})`
            : 'required: a list of steps',
        ),
      )
      .min(1, 'a workflow needs at least one step')
      .max(
        MAX_STEPS,
        says((v) => `a workflow has at most ${MAX_STEPS} steps (got ${Array.isArray(v) ? v.length : '?'})`),
      ),
    recovery: z
      .enum(
        STRATEGIES,
        says((v) => `must be one of ${STRATEGIES.join(', ')} (got ${JSON.stringify(v)})`),
      )
      .optional()
      .describe('what happens when a step attempt fails (default retry)'),
    max_parallel: atLeast(1).optional(),
    timeout_ms: atLeast(1).optional().describe('whole-run timeout in milliseconds'),
    output_step: z
      .string(says('must be a step id'))
      .optional()
      .describe("the step whose output is the workflow's output (default: the single sink, or a map of all sinks)"),
  },
  notMapping('a workflow must be an object with `id` and `steps`'),
);

// the documented types (types.ts) and the schema describe the same thing: a compile error when they drift
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const _sameShape: Same<z.output<typeof workflowSchema>, WorkflowDefinition> = true;
void _sameShape;

export function workflowUnknownKey(key: string, allowed: string[]): string {
  return `unknown key '${key}' (allowed: ${allowed.join(', ')})`;
}

/** `arena schema workflow`: the published JSON Schema of workflow files. */
export function workflowJsonSchema(): Record<string, unknown> {
  return publishedJsonSchema(
    {
      name: 'workflow',
      title: 'Chaos Arena workflow',
      description: 'A DAG of steps, each run by an agent of its agent_type',
    },
    workflowSchema,
  );
}
