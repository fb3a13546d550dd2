/**
 * zod issues → the arena's source problems (`path: message`), so files
 * described by a zod schema report each problem at its line:column like every
 * other file the arena reads. An unknown key is reported at the key itself.
 */
import { z } from 'zod';
import { durationProblem, tryParseDuration } from './duration.js';
import { formatSegments, type SourceProblem } from './yaml-source.js';

/** re-exported: the validators built on this module name paths with it */
export { formatSegments };

/** A problem as segments, so a loader can find the YAML node behind it. */
export interface SegmentProblem {
  segments: Array<string | number>;
  /** true when the problem is the key itself (an unknown key), not its value */
  atKey: boolean;
  message: string;
}

export interface ProblemWording {
  /** how a file words an unknown key; `allowed` are the keys the mapping at `at` takes */
  unknownKey?: (key: string, allowed: string[], at: Array<string | number>) => string;
}

// carries an object's own keys from the parse (where the schema is known) to the wording
const ALLOWED = '\u0000allowed:';

/** Every problem of `value` against `schema`, worded by the file's conventions; `data` when there are none. */
export function parseProblems<S extends z.ZodType>(
  schema: S,
  value: unknown,
  wording: ProblemWording = {},
): { data?: z.output<S>; problems: SegmentProblem[] } {
  const parsed = schema.safeParse(value, {
    error: (iss) => {
      if (iss.code !== 'unrecognized_keys') return undefined;
      const shape = (iss.inst as { _zod?: { def?: { shape?: Record<string, unknown> } } } | undefined)?._zod?.def
        ?.shape;
      return `${ALLOWED}${Object.keys(shape ?? {}).join(', ')}`;
    },
  });
  if (parsed.success) return { data: parsed.data, problems: [] };
  return { problems: segmentProblems(parsed.error, wording) };
}

function segmentProblems(error: z.ZodError, wording: ProblemWording): SegmentProblem[] {
  const problems: SegmentProblem[] = [];
  for (const issue of error.issues) {
    const at = issue.path.map((s) => (typeof s === 'number' ? s : String(s)));
    if (issue.code === 'unrecognized_keys') {
      const allowed = issue.message.startsWith(ALLOWED)
        ? issue.message.slice(ALLOWED.length).split(', ').filter(Boolean)
        : [];
      for (const key of issue.keys) {
        const message = wording.unknownKey ? wording.unknownKey(key, allowed, at) : `unknown key "${key}"`;
        problems.push({ segments: [...at, key], atKey: true, message });
      }
    } else {
      // a custom check may report a key itself (an unknown parameter): `params: { atKey: true }`
      const atKey = issue.code === 'custom' && (issue.params as { atKey?: unknown } | undefined)?.atKey === true;
      problems.push({ segments: at, atKey, message: issue.message });
    }
  }
  return problems;
}

export function zodProblems(error: z.ZodError, wording: ProblemWording = {}): SourceProblem[] {
  return segmentProblems(error, wording).map((p) => ({ path: formatSegments(p.segments), message: p.message }));
}

/** `(got 5)` / `got a list`: what a value was, for messages */
export function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  return typeof v === 'object' ? 'a mapping' : `${typeof v} ${JSON.stringify(v)}`;
}

/** A message for every issue a schema (and its checks) raises: `z.number(says(m)).int(says(m))`. */
export function says(message: string | ((input: unknown) => string)): { error: (iss: { input?: unknown }) => string } {
  return { error: (iss) => (typeof message === 'string' ? message : message(iss.input)) };
}

/**
 * A duration as the arena writes them ("250ms", "2s", "1m30s" or whole ms), 0..24h, as milliseconds.
 * `word` turns the shared duration problem into the file's wording.
 */
export function durationSchema(word: (problem: string, input: unknown) => string = (p) => p) {
  return z
    .union([z.string(), z.number()], {
      error: (iss) => word(durationProblem(iss.input) ?? 'must be a duration', iss.input),
    })
    .transform((value, ctx) => {
      const problem = durationProblem(value);
      if (problem !== undefined) {
        ctx.addIssue({ code: 'custom', message: word(problem, value) });
        return z.NEVER;
      }
      return tryParseDuration(value)!;
    });
}

/** The shared duration rules with their own wording. */
export const durationMs = durationSchema();
