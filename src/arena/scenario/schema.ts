/**
 * Scenario files (DESIGN §4), described once (zod): the schema checks every
 * field with its path and is the published JSON Schema (`arena schema
 * scenario`). An action is checked by the one gate every action passes
 * (`actionProblems`, also behind HTTP bodies); its published shape comes from
 * the same per-fault tables. Labels, `depends_on` references and cycles are
 * checked after the schema, in validate.ts.
 */
import { z } from 'zod';
import { ACTION_PARAMETERS, actionProblems, isPlainObject } from '../actions.js';
import { ACTION_TYPES, SELF_TARGETING, type ActionType } from '../action.js';
import { llmFaultShape } from '../../protocol/llm-faults.js';
import { toolFaultShape } from '../../protocol/tool-faults.js';
import { publishedJsonSchema } from '../../shared/json-schema.js';
import { durationSchema, says } from '../../shared/zod-problems.js';
import { RANDOM_TARGET } from './schedule.js';
import { stopWhenSchema } from '../safety/stop-when.js';
import { maxAffectedSchema } from '../safety/blast-radius.js';

export const MAX_SCENARIO_ACTIONS = 1000;
const LABEL = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

const bool = z.boolean(says('must be true or false'));
/** durations take the shared rules; a negative one names itself first */
const duration = durationSchema((problem, input) =>
  (typeof input === 'number' && input < 0) || (typeof input === 'string' && input.trim().startsWith('-'))
    ? `must not be negative (got ${typeof input === 'number' ? input : JSON.stringify(input)})`
    : problem,
);
const notMapping = (message: string) => ({
  error: (iss: { code?: string }) => (iss.code === 'invalid_type' ? message : undefined),
});

/** The published shape of one action, from the tables actionProblems checks against. */
function actionShape(type: ActionType) {
  // llm_failure's parameters are the LLM proxy's own vocabulary; the others are durations
  const parameters =
    type === 'llm_failure'
      ? { ...llmFaultShape, duration: durationSchema().optional() }
      : type === 'tool_fault'
        ? { ...toolFaultShape, duration: durationSchema().optional() }
        : Object.fromEntries(ACTION_PARAMETERS[type].map((name) => [name, durationSchema().optional()]));
  const needsTarget = !SELF_TARGETING.has(type);
  const node = type === 'remove_node' || type === 'remove_edge';
  return z.strictObject({
    type: z.literal(type),
    target_id: needsTarget
      ? z
          .string()
          .min(1)
          .describe(
            node ? 'a DAG node id' : `an agent id, or "${RANDOM_TARGET}" (a seeded pick among the running workers)`,
          )
      : z.literal('').optional().describe('the arena finds the target itself'),
    ...(type === 'remove_edge' ? { source_id: z.string().min(1).describe('the edge goes source_id → target_id') } : {}),
    id: z.string().optional(),
    created_at: z.string().optional(),
    metadata: z.strictObject(parameters).nullable().optional(),
  });
}
/** built on demand: only `arena schema scenario` needs it, and its 20-odd objects cost every `validate` start-up */
const publishedAction = () =>
  z.discriminatedUnion('type', ACTION_TYPES.map(actionShape) as unknown as [ReturnType<typeof actionShape>]);

export interface ScenarioActionInput {
  type: ActionType;
  target_id?: string;
  source_id?: string;
  id?: string;
  created_at?: string;
  metadata?: Record<string, unknown>;
}

/** the fault of one step: the shared action gate, plus what only a scenario means (`random`) */
export const scenarioAction = z
  .custom<ScenarioActionInput>(() => true)
  .superRefine((action, ctx) => {
    if (action === undefined) {
      ctx.addIssue({
        code: 'custom',
        message: 'required: the fault to inject, e.g. { type: kill_agent, target_id: agent-2 }',
      });
      return;
    }
    for (const p of actionProblems(action, 'action')) {
      const atKey = p.message.startsWith('unknown key') || p.message.startsWith('unknown parameter');
      ctx.addIssue({ code: 'custom', message: p.message, path: p.path.split('.').slice(1), params: { atKey } });
    }
    const a = action as unknown;
    // `random` is resolved to a running worker at run time; a DAG fault would get an agent id as its node
    if (isPlainObject(a) && a.target_id === RANDOM_TARGET && (a.type === 'remove_node' || a.type === 'remove_edge')) {
      ctx.addIssue({
        code: 'custom',
        message: `"${RANDOM_TARGET}" picks a running agent; ${String(a.type)} needs a DAG node id`,
        path: ['target_id'],
      });
    }
  });

const labelWords = says('must be a word of letters, digits, "-", "_" or "."');

export const scenarioStepSchema = z.strictObject(
  {
    label: z
      .string(labelWords)
      .regex(LABEL, labelWords)
      .optional()
      .describe('names the step for depends_on (default: type-N)'),
    delay: duration.optional().describe('after the start (or after depends_on are done)'),
    action: scenarioAction,
    expect_success: bool.optional(),
    expect_failure: bool.optional(),
    depends_on: z
      .union([z.string(), z.array(z.string(labelListWords()))], labelListWords())
      .optional()
      .describe('labels of the steps that finish first'),
    description: z.string(says('must be a string')).optional(),
  },
  notMapping('must be a mapping with an "action"'),
);

function labelListWords() {
  return says('must be a list of labels');
}

const configSchema = z.strictObject(
  {
    stop_on_error: bool.optional(),
    parallel_actions: bool.optional(),
    max_concurrent: z
      .number(says('must be an integer ≥ 1'))
      .int(says('must be an integer ≥ 1'))
      .min(1, says('must be an integer ≥ 1'))
      .optional(),
    timeout: duration.refine((ms) => ms > 0, 'must be greater than 0').optional(),
    warmup: duration.optional().describe('steady state measured before the first fault (default 1s)'),
    cooldown: duration.optional().describe('recovery measured after the last fault has ended (default 3s)'),
    recovery_deadline: duration
      .optional()
      .describe('how long a disruptive fault has to recover before it counts as not recovered'),
    seed: z
      .number(says('must be a non-negative integer'))
      .int(says('must be a non-negative integer'))
      .min(0, says('must be a non-negative integer'))
      .max(0xffffffff, says('must be a non-negative integer'))
      .optional(),
    target: z
      .string(says('must be the path of a target file (relative to this scenario file)'))
      .refine((s) => s.trim() !== '', 'must be the path of a target file (relative to this scenario file)')
      .optional()
      .describe('a target file, relative to this scenario file; --target wins'),
    stop_when: stopWhenSchema.optional(),
    max_affected: maxAffectedSchema.optional(),
  },
  notMapping('must be a mapping'),
);

const required = says('required: a non-empty string');
const scoreWords = says('must be a number from 0 to 100');

export const scenarioSchema = z.strictObject(
  {
    name: z.string(required).refine((s) => s.trim() !== '', required),
    description: z.string(says('must be a string')).optional(),
    tags: z.array(z.string(says('must be a list of strings')), says('must be a list of strings')).optional(),
    config: configSchema.nullable().optional(),
    expect: z
      .strictObject(
        { min_score: z.number(scoreWords).min(0, scoreWords).max(100, scoreWords).optional() },
        notMapping('must be a mapping'),
      )
      .optional(),
    actions: z
      .array(
        scenarioStepSchema,
        says((v) => (v === undefined ? 'required: a list of actions' : 'must be a list of actions')),
      )
      .min(1, 'must contain at least one action')
      .max(
        MAX_SCENARIO_ACTIONS,
        says(
          (v) => `a scenario has at most ${MAX_SCENARIO_ACTIONS} actions (got ${Array.isArray(v) ? v.length : '?'})`,
        ),
      ),
  },
  notMapping('a scenario must be a mapping with at least "name" and "actions"'),
);

export function scenarioUnknownKey(key: string, allowed: string[]): string {
  return `unknown key "${key}" (allowed: ${allowed.join(', ')})`;
}

/** `arena schema scenario`: the published JSON Schema of scenario files; the action shape stands in for the gate, which a JSON Schema cannot run. */
export function scenarioJsonSchema(): Record<string, unknown> {
  return publishedJsonSchema(
    {
      name: 'scenario',
      title: 'Chaos Arena scenario',
      description: 'Faults to inject, when, and what score to expect (DESIGN §4)',
    },
    scenarioSchema,
    new Map<z.ZodType, z.ZodType>([[scenarioAction, publishedAction()]]),
  );
}
