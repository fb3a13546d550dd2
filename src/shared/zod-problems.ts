/**
 * zod issues → the arena's source problems (`path: message`), so files
 * described by a zod schema report each problem at its line:column like every
 * other file the arena reads. An unknown key is reported at the key itself.
 */
import { z } from 'zod';
import type { SourceProblem } from './yaml-source.js';
import { durationProblem, tryParseDuration } from './duration.js';


export function formatSegments(segments: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const s of segments) out += typeof s === 'number' ? `[${s}]` : out === '' ? String(s) : `.${String(s)}`;
  return out;
}

export function zodProblems(error: z.ZodError): SourceProblem[] {
  const problems: SourceProblem[] = [];
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) problems.push({ path: formatSegments([...issue.path, key]), message: `unknown key "${key}"` });
    } else {
      problems.push({ path: formatSegments(issue.path), message: issue.message });
    }
  }
  return problems;
}

/** A duration as the arena writes them ("250ms", "2s", "1m30s" or whole ms), 0..24h, as milliseconds. */
export const durationMs = z.union([z.string(), z.number()]).transform((value, ctx) => {
  const problem = durationProblem(value);
  if (problem !== undefined) {
    ctx.addIssue({ code: 'custom', message: problem });
    return z.NEVER;
  }
  return tryParseDuration(value)!;
});
