/**
 * zod issues → the arena's source problems (`path: message`), so files
 * described by a zod schema report each problem at its line:column like every
 * other file the arena reads. An unknown key is reported at the key itself.
 */
import { z } from 'zod';
import type { SourceProblem } from './yaml-source.js';
import { tryParseDuration } from './duration.js';

export const MAX_DURATION_MS = 24 * 60 * 60 * 1000;

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
  const ms = tryParseDuration(value);
  if (ms === undefined) {
    ctx.addIssue({ code: 'custom', message: `invalid duration ${JSON.stringify(value)}: use "250ms", "2s", "1m30s" or whole milliseconds` });
    return z.NEVER;
  }
  if (ms > MAX_DURATION_MS) {
    ctx.addIssue({ code: 'custom', message: `duration ${JSON.stringify(value)} is longer than 24h` });
    return z.NEVER;
  }
  return ms;
});
