/**
 * The one body-validation mechanism of the API: every route states its body
 * as a strict zod schema, and a body that does not fit it (unknown keys,
 * wrong types, the wrong JSON type at the root) is a 400 naming the field,
 * before the route does anything. Routes never pick fields out of a body
 * they have not validated as a whole.
 */
import { z } from 'zod';
import { UsageError } from '../shared/errors.js';
import { tryParseDuration } from '../shared/duration.js';

export { z };

type Issue = z.core.$ZodIssue;

/** `body`, `body.steps[2].id` */
export function fieldPath(path: readonly PropertyKey[], root = 'body'): string {
  let out = root;
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : `.${String(p)}`;
  return out;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : typeof value;
}

/** the keys the object schema at `path` accepts (undefined when that is not a plain object schema) */
function allowedKeys(schema: z.ZodType, path: readonly PropertyKey[]): string[] | undefined {
  let node: unknown = schema;
  for (const p of path) {
    while (node instanceof z.ZodOptional || node instanceof z.ZodNullable) node = node.unwrap();
    if (typeof p === 'number' && node instanceof z.ZodArray) node = node.element;
    else if (typeof p === 'string' && node instanceof z.ZodObject) node = (node.shape as Record<string, unknown>)[p];
    else return undefined;
  }
  while (node instanceof z.ZodOptional || node instanceof z.ZodNullable) node = node.unwrap();
  return node instanceof z.ZodObject ? Object.keys(node.shape) : undefined;
}

function issueText(issue: Issue, root: string, schema: z.ZodType): string {
  const at = fieldPath(issue.path, root);
  if (issue.code === 'unrecognized_keys') {
    const allowed = allowedKeys(schema, issue.path);
    const takes =
      allowed === undefined
        ? ''
        : allowed.length
          ? ` (allowed: ${allowed.join(', ')})`
          : ' (this route takes no body parameters)';
    return issue.keys.map((k) => `${fieldPath([...issue.path, k], root)}: unknown key${takes}`).join('; ');
  }
  if (
    issue.code === 'invalid_type' &&
    issue.path.length === 0 &&
    (issue.expected === 'object' || issue.expected === 'record')
  ) {
    return `${root} must be a JSON object, got ${describe(issue.input)}`;
  }
  // zod prefixes its own wording with "Invalid input: "; the field name says that already
  return `${at}: ${issue.message.replace(/^Invalid input: /, '')}`;
}

/**
 * Validates `value` against `schema`; a mismatch is a UsageError (400) whose
 * message names the first offending field and whose details list them all.
 */
export function parseWith<T>(schema: z.ZodType<T>, value: unknown, root = 'body'): T {
  const result = schema.safeParse(value, { reportInput: true });
  if (result.success) return result.data;
  const problems = result.error.issues.map((i) => issueText(i, root, schema));
  const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : '';
  throw new UsageError(`${problems[0]}${more}`, { code: 'invalid_input', details: problems });
}

/** What a route reads its body with. */
export interface BodySource {
  json(): Promise<unknown>;
  optionalJson(): Promise<unknown>;
}

/** A required JSON body, validated as a whole. */
export async function body<T>(ctx: BodySource, schema: z.ZodType<T>): Promise<T> {
  return parseWith(schema, await ctx.json());
}

/** A body that may be left out (then it is `{}`); when sent, it is validated as a whole like any other. */
export async function optionalBody<T>(ctx: BodySource, schema: z.ZodType<T>): Promise<T> {
  const value = await ctx.optionalJson();
  return parseWith(schema, value === undefined ? {} : value);
}

/** For routes that take no body: none or `{}` is fine; anything else is a 400 before the route acts. */
export async function noBody(ctx: BodySource, route: string): Promise<void> {
  const value = await ctx.optionalJson();
  if (value === undefined) return;
  try {
    parseWith(z.strictObject({}), value);
  } catch (err) {
    if (err instanceof UsageError)
      throw new UsageError(`${err.message} (${route} takes no body)`, { code: err.code, details: err.details });
    throw err;
  }
}

// ---- field types shared by several routes ----

/** a non-blank string of bounded length */
export const text = (max = 10_000) =>
  z
    .string()
    .max(max, `must be at most ${max} characters`)
    .refine((s) => s.trim() !== '', 'must not be empty');

/** an identifier: names a session, agent, document */
export const id = () => text(200);

/** a JSON object with any keys (metadata the route stores as given) */
export const record = () => z.record(z.string(), z.unknown());

export const int = (min: number, max: number) =>
  z
    .number()
    .int(`must be an integer from ${min} to ${max}`)
    .min(min, `must be an integer from ${min} to ${max}`)
    .max(max, `must be an integer from ${min} to ${max}`);

/** DESIGN §3: "250ms", "2s", "1m30s" or integer milliseconds, 0 up to 24 h */
export const MAX_DURATION_MS = 24 * 3_600_000;
export const duration = () =>
  z.union([z.string().max(100), z.number()]).refine((v) => {
    const ms = tryParseDuration(v);
    return ms !== undefined && ms <= MAX_DURATION_MS;
  }, 'must be a duration such as "2s" or "250ms", or integer milliseconds, from 0 to 24h');
