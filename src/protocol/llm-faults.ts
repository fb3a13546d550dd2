/**
 * The one vocabulary of `llm_failure` (DESIGN §10.2, §13.1): every error type
 * the LLM proxy can inject and the parameters each takes, described once
 * (zod). The proxy, scenario files, the HTTP routes and the published JSON
 * Schemas all read it from here, so a scenario can ask for exactly what the
 * proxy can do and nothing it cannot.
 */
import { z } from 'zod';

export const LLM_ERROR_TYPES = [
  // loud: the API answers an error the SDKs retry
  'rate_limit',
  'overloaded',
  'server_error',
  'timeout',
  'stream_error',
  'stream_stall',
  // quiet content faults: a 200 with a wrong answer (§13.1)
  'truncate',
  'empty',
  'refusal',
  'malformed_tool_args',
  'wrong_value',
  // errors a client must not retry
  'context_length',
  'auth',
  'forbidden',
  'insufficient_quota',
  // timing and capacity
  'slow_first_token',
  'slow_stream',
  'rate_limit_storm',
  'model_swap',
] as const;
export type LlmErrorType = (typeof LLM_ERROR_TYPES)[number];

/** The error types a target without the proxy (the embedded runtime's simulated LLM) can apply. */
export const LOUD_LLM_ERROR_TYPES = ['rate_limit', 'overloaded', 'timeout', 'server_error'] as const;
export type LoudLlmErrorType = (typeof LOUD_LLM_ERROR_TYPES)[number];

/** the answer is a 200 whose content the proxy rewrites */
export const CONTENT_FAULTS: ReadonlySet<LlmErrorType> = new Set([
  'truncate',
  'empty',
  'refusal',
  'malformed_tool_args',
  'wrong_value',
]);

/** answered by the proxy with a status and the provider's body, the upstream never asked */
export const STATUS_FAULTS: ReadonlySet<LlmErrorType> = new Set([
  'rate_limit',
  'overloaded',
  'server_error',
  'context_length',
  'auth',
  'forbidden',
  'insufficient_quota',
]);

export const STREAM_FAULTS: ReadonlySet<LlmErrorType> = new Set(['stream_error', 'stream_stall']);

/** Parameters every error type takes. */
const COMMON = ['error_type', 'first_n', 'probability', 'match'] as const;

/** What each error type takes beyond the common parameters; a parameter another type takes is refused. */
export const LLM_TYPE_PARAMS: Record<LlmErrorType, readonly string[]> = {
  rate_limit: ['retry_after_s'],
  overloaded: ['retry_after_s'],
  server_error: ['retry_after_s'],
  timeout: [],
  stream_error: ['after_events'],
  stream_stall: ['after_events'],
  truncate: ['keep'],
  empty: [],
  refusal: [],
  malformed_tool_args: [],
  wrong_value: [],
  context_length: [],
  auth: [],
  forbidden: [],
  insufficient_quota: [],
  slow_first_token: ['delay_ms'],
  slow_stream: ['chunk_delay_ms'],
  rate_limit_storm: ['requests_per_min', 'tokens_per_min'],
  model_swap: ['to_model'],
};

export const LLM_FAULT_PARAM_NAMES: readonly string[] = [...COMMON, ...new Set(Object.values(LLM_TYPE_PARAMS).flat())];

const whole = (min: number, max: number) =>
  z
    .number(`expected a whole number from ${min} to ${max}`)
    .int(`expected a whole number from ${min} to ${max}`)
    .min(min, `expected a whole number from ${min} to ${max}`)
    .max(max, `expected a whole number from ${min} to ${max}`);
const ms = (what: string) => whole(0, 600_000).describe(what);

const matchObject = z
  .strictObject({
    path: z
      .string('expected a path starting with /')
      .startsWith('/', 'expected a path starting with /')
      .describe('the request path ends with this')
      .optional(),
    model: z
      .string('expected a non-empty model name')
      .min(1, 'expected a non-empty model name')
      .describe("the body's model: exact, or a prefix when it ends in *")
      .optional(),
  })
  .refine((m) => m.path !== undefined || m.model !== undefined, 'give path, model or both');

/** The parameters of `llm_failure`, as published and as checked field by field. */
export const llmFaultShape = {
  error_type: z
    .enum(LLM_ERROR_TYPES, {
      error: (iss) => `unknown error type ${JSON.stringify(iss.input)} (valid: ${LLM_ERROR_TYPES.join(', ')})`,
    })
    .describe('what the LLM call gets (DESIGN §10.2, §13.1); rate_limit when not given')
    .optional(),
  first_n: whole(1, 1_000_000).describe('act on the first N matching requests only, then pass').optional(),
  probability: z
    .number('expected a number from 0 to 1')
    .min(0, 'expected a number from 0 to 1')
    .max(1, 'expected a number from 0 to 1')
    .describe('chance a matching request is acted on, drawn from the seed; 1 when not given')
    .optional(),
  match: z
    .union([z.string().min(1), matchObject], {
      error: () => 'expected a path (starting with /), a model name, or an object {path?, model?}',
    })
    .describe('a path (starting with /) or a model; or {path?, model?}, both must hold')
    .optional(),
  retry_after_s: z
    .number('expected seconds from 0 to 3600')
    .min(0, 'expected seconds from 0 to 3600')
    .max(3600, 'expected seconds from 0 to 3600')
    .describe('the retry-after header (rate_limit, overloaded, server_error); rate_limit sends 1 when not given')
    .optional(),
  after_events: whole(0, 1_000_000).describe('stream faults: whole SSE events that pass before the break').optional(),
  keep: z
    .number('expected a fraction from 0 to 1')
    .min(0, 'expected a fraction from 0 to 1')
    .max(1, 'expected a fraction from 0 to 1')
    .describe('truncate: the fraction of the text kept (default 0.5)')
    .optional(),
  delay_ms: ms("slow_first_token: how long the answer's first byte is held").optional(),
  chunk_delay_ms: ms('slow_stream: the delay before each streamed event').optional(),
  requests_per_min: whole(1, 1_000_000).describe("rate_limit_storm: each client's requests per minute").optional(),
  tokens_per_min: whole(1, 100_000_000)
    .describe("rate_limit_storm: each client's tokens per minute (a request's tokens: its bytes / 4 + max_tokens)")
    .optional(),
  to_model: z
    .string('expected a non-empty model name')
    .min(1, 'expected a non-empty model name')
    .describe('model_swap: the model the request is sent upstream for')
    .optional(),
};

export const llmFaultParams = z.strictObject(llmFaultShape);
export type LlmFaultParams = z.output<typeof llmFaultParams>;

export interface LlmFaultProblem {
  /** the parameter, e.g. `first_n` or `match.path` */
  field: string;
  message: string;
}

/**
 * Every problem with an `llm_failure`'s parameters: unknown keys, bad values,
 * and parameters the chosen error type does not take. `extra` are keys the
 * caller handles itself (a scenario's `duration`).
 */
export function llmFaultProblems(params: Record<string, unknown>, extra: readonly string[] = []): LlmFaultProblem[] {
  const problems: LlmFaultProblem[] = [];
  const known = new Set([...LLM_FAULT_PARAM_NAMES, ...extra]);
  const own: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(params)) {
    if (!known.has(key)) {
      problems.push({
        field: key,
        message: `unknown parameter (expected one of ${[...LLM_FAULT_PARAM_NAMES, ...extra].join(', ')})`,
      });
    } else if (!extra.includes(key) && value !== undefined) own[key] = value;
  }
  // unknown fields of `match` are named one by one, not as a failed union
  const match = own.match;
  const isMatchObject = typeof match === 'object' && match !== null && !Array.isArray(match);
  const strangers = isMatchObject ? Object.keys(match).filter((k) => k !== 'path' && k !== 'model') : [];
  for (const key of strangers)
    problems.push({ field: `match.${key}`, message: 'unknown field (expected path, model)' });
  const parsed = llmFaultParams.safeParse(own);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      if (issue.path[0] === 'match' && strangers.length > 0) continue;
      problems.push({ field: issue.path.map(String).join('.') || 'params', message: matchMessage(issue) });
    }
    return problems;
  }
  if (problems.length > 0) return problems;
  const type = parsed.data.error_type ?? 'rate_limit';
  const takes = LLM_TYPE_PARAMS[type];
  for (const key of Object.keys(own)) {
    if ((COMMON as readonly string[]).includes(key) || takes.includes(key)) continue;
    problems.push({ field: key, message: notTaken(key, type) });
  }
  if (type === 'model_swap' && parsed.data.to_model === undefined)
    problems.push({ field: 'to_model', message: 'model_swap needs to_model, the model the request goes upstream for' });
  if (type === 'rate_limit_storm' && parsed.data.requests_per_min === undefined && !parsed.data.tokens_per_min)
    problems.push({
      field: 'requests_per_min',
      message: 'rate_limit_storm needs requests_per_min, tokens_per_min or both',
    });
  return problems;
}

/** a bad `match` object says which of its fields is wrong, not that a union failed */
function matchMessage(issue: z.core.$ZodIssue): string {
  if (issue.path[0] === 'match' && issue.code === 'invalid_union') {
    for (const branch of (issue as { errors?: z.core.$ZodIssue[][] }).errors ?? []) {
      const other = branch.find((i) => i.path.length > 0 || i.code === 'custom');
      if (other) return `${other.path.length ? `${other.path.join('.')}: ` : ''}${other.message}`;
    }
  }
  return issue.message;
}

function notTaken(key: string, type: LlmErrorType): string {
  if (key === 'retry_after_s' && (type === 'timeout' || STREAM_FAULTS.has(type)))
    return `${type} sends no status, so it has no retry-after (only rate_limit, overloaded, server_error do)`;
  const takers = LLM_ERROR_TYPES.filter((t) => LLM_TYPE_PARAMS[t].includes(key));
  return `only ${joinOr(takers)} take${takers.length === 1 ? 's' : ''} it, not ${type}`;
}

function joinOr(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}
