/**
 * Output evaluators: each compares an output with what was expected and
 * returns a pass/fail, a 0–1 score and a reason. evaluate() runs several and
 * passes only when all of them pass.
 */
import { RE2JS } from 're2js';
import { UsageError } from '../../shared/errors.js';
import { tokenize } from './retrieval.js';

export interface EvalOutcome {
  evaluator: string;
  passed: boolean;
  score: number;
  reason: string;
}

export interface Evaluator {
  name: string;
  description: string;
  run(output: string, expected: unknown, options: Record<string, unknown>): Omit<EvalOutcome, 'evaluator'>;
}

function expectString(name: string, expected: unknown): string {
  if (typeof expected !== 'string')
    throw new UsageError(`evaluator ${name} needs "expected" as a string`, { code: 'invalid_input' });
  return expected;
}

function bool(options: Record<string, unknown>, key: string): boolean {
  return options[key] === true;
}

const normalise = (s: string, options: Record<string, unknown>) => {
  let out = options.trim === false ? s : s.trim();
  if (bool(options, 'ignore_case')) out = out.toLowerCase();
  return out;
};

export const MAX_PATTERN_LENGTH = 1000;
const RE2_FLAGS: Record<string, number> = { i: RE2JS.CASE_INSENSITIVE, m: RE2JS.MULTILINE, s: RE2JS.DOTALL };

/**
 * A user's pattern runs on RE2 (re2js): matching is linear in the input, so
 * no pattern can make the server backtrack for seconds. RE2 has no
 * backreferences or lookaround; such a pattern is refused with the reason.
 */
export function compileUserPattern(source: string, flags: string): RE2JS {
  if (source.length > MAX_PATTERN_LENGTH)
    throw new UsageError(
      `evaluator regex: the pattern is ${source.length} characters (at most ${MAX_PATTERN_LENGTH})`,
      { code: 'invalid_input' },
    );
  let bits = 0;
  for (const f of flags) {
    const bit = RE2_FLAGS[f];
    if (bit === undefined)
      throw new UsageError(`evaluator regex: unsupported flag "${f}" (i, m, s)`, { code: 'invalid_input' });
    bits |= bit;
  }
  try {
    return RE2JS.compile(source, bits);
  } catch (err) {
    throw new UsageError(
      `evaluator regex: invalid pattern ${JSON.stringify(source)} (RE2 syntax: no backreferences or lookaround): ${(err as Error).message}`,
      { code: 'invalid_input' },
    );
  }
}

export const EVALUATORS: readonly Evaluator[] = [
  {
    name: 'exact_match',
    description: 'output equals expected (options: ignore_case)',
    run(output, expected, options) {
      const want = expectString('exact_match', expected);
      const passed = normalise(output, options) === normalise(want, options);
      return {
        passed,
        score: passed ? 1 : 0,
        reason: passed ? 'output equals expected' : 'output differs from expected',
      };
    },
  },
  {
    name: 'contains',
    description: 'output contains expected (a string, or every string of an array) (options: ignore_case)',
    run(output, expected, options) {
      const wants = Array.isArray(expected) ? expected : [expected];
      if (wants.length === 0 || !wants.every((w) => typeof w === 'string')) {
        throw new UsageError('evaluator contains needs "expected" as a string or an array of strings', {
          code: 'invalid_input',
        });
      }
      const haystack = bool(options, 'ignore_case') ? output.toLowerCase() : output;
      const missing = (wants as string[]).filter(
        (w) => !haystack.includes(bool(options, 'ignore_case') ? w.toLowerCase() : w),
      );
      const score = (wants.length - missing.length) / wants.length;
      return {
        passed: missing.length === 0,
        score,
        reason:
          missing.length === 0
            ? 'every expected text found'
            : `missing: ${missing.map((m) => JSON.stringify(m)).join(', ')}`,
      };
    },
  },
  {
    name: 'regex',
    description:
      'output matches the regular expression in expected, RE2 syntax, linear time (options: flags from i, m, s)',
    run(output, expected, options) {
      const source = expectString('regex', expected);
      const flags = typeof options.flags === 'string' ? options.flags : '';
      const passed = compileUserPattern(source, flags).matcher(output).find();
      return {
        passed,
        score: passed ? 1 : 0,
        reason: passed ? `matches /${source}/${flags}` : `does not match /${source}/${flags}`,
      };
    },
  },
  {
    name: 'length',
    description: 'output length in characters lies within options.min..options.max',
    run(output, _expected, options) {
      const min = typeof options.min === 'number' ? options.min : 0;
      const max = typeof options.max === 'number' ? options.max : Number.POSITIVE_INFINITY;
      if (min > max)
        throw new UsageError(`evaluator length: options.min (${min}) is greater than options.max (${max})`, {
          code: 'invalid_input',
        });
      const n = [...output].length;
      const passed = n >= min && n <= max;
      return {
        passed,
        score: passed ? 1 : 0,
        reason: `${n} characters, allowed ${min}..${max === Number.POSITIVE_INFINITY ? '∞' : max}`,
      };
    },
  },
  {
    name: 'json_valid',
    description: 'output parses as JSON',
    run(output) {
      try {
        JSON.parse(output);
        return { passed: true, score: 1, reason: 'valid JSON' };
      } catch (err) {
        return { passed: false, score: 0, reason: `not JSON: ${(err as Error).message}` };
      }
    },
  },
  {
    name: 'token_f1',
    description: 'token-overlap F1 between output and expected; passes at options.threshold (default 0.5)',
    run(output, expected, options) {
      const want = tokenize(expectString('token_f1', expected));
      const got = tokenize(output);
      const counts = new Map<string, number>();
      for (const t of want) counts.set(t, (counts.get(t) ?? 0) + 1);
      let common = 0;
      for (const t of got) {
        const c = counts.get(t) ?? 0;
        if (c > 0) {
          common++;
          counts.set(t, c - 1);
        }
      }
      const precision = got.length ? common / got.length : 0;
      const recall = want.length ? common / want.length : 0;
      const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
      const threshold = typeof options.threshold === 'number' ? options.threshold : 0.5;
      const score = Math.round(f1 * 10_000) / 10_000;
      return { passed: f1 >= threshold, score, reason: `F1 ${score} (threshold ${threshold})` };
    },
  },
];

export interface EvalRunner {
  evaluators(): Array<{ name: string; description: string }>;
  evaluate(request: { evaluators: string[]; output: string; expected?: unknown; options?: Record<string, unknown> }): {
    passed: boolean;
    score: number;
    results: EvalOutcome[];
  };
}

export function createEvalRunner(evaluators: readonly Evaluator[] = EVALUATORS): EvalRunner {
  const byName = new Map(evaluators.map((e) => [e.name, e]));
  return {
    evaluators: () => evaluators.map(({ name, description }) => ({ name, description })),
    evaluate({ evaluators: names, output, expected, options = {} }) {
      const unknown = names.filter((n) => !byName.has(n));
      if (unknown.length > 0) {
        throw new UsageError(
          `unknown evaluator ${unknown.map((u) => `"${u}"`).join(', ')}; known: ${[...byName.keys()].join(', ')}`,
          { code: 'unknown_evaluator' },
        );
      }
      const results = names.map((name) => ({ evaluator: name, ...byName.get(name)!.run(output, expected, options) }));
      const score = results.reduce((s, r) => s + r.score, 0) / results.length;
      return { passed: results.every((r) => r.passed), score: Math.round(score * 10_000) / 10_000, results };
    },
  };
}
