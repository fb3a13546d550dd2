/**
 * Recorded scores for `arena regress --baseline-scores a.json --candidate-scores b.json`:
 * a JSON array of numbers, an array of reports, or a document written by
 * `--report` / `--json` (scenario runs, a survival run, or a regression result).
 */
import { readFile } from 'node:fs/promises';
import { UsageError, errorMessage } from '../../shared/errors.js';

/** `shown` is the name used in messages (what the user typed), `path` the file read */
export async function readScoresFile(path: string, arm = 'scores', shown = path): Promise<number[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    const reason = (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : errorMessage(err);
    throw new UsageError(`cannot read the ${arm} file ${shown}: ${reason}`, { code: 'invalid_scores' });
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new UsageError(`${arm} file ${shown} is not valid JSON: ${errorMessage(err)}`, { code: 'invalid_scores' });
  }
  return extractScores(data, shown);
}

/** Scores from parsed JSON; throws UsageError naming the file and the path of the first bad entry. */
export function extractScores(data: unknown, source = 'scores'): number[] {
  const fail = (where: string, what: string): never => {
    throw new UsageError(
      `${source}${where}: ${what} (expected a JSON array of numbers, or a report written by --report / --json)`,
      { code: 'invalid_scores' },
    );
  };
  let scores: number[];
  if (Array.isArray(data)) {
    scores = data.map((item, i) => scoreOf(item) ?? fail(`[${i}]`, `not a score: ${preview(item)}`));
  } else if (isObject(data) && Array.isArray(data.scenarios)) {
    scores = data.scenarios.map((item, i) => scoreOf(item) ?? fail(`.scenarios[${i}]`, 'has no numeric score'));
  } else if (isObject(data) && isObject(data.survival)) {
    scores = [scoreOf(data.survival) ?? fail('.survival', 'has no numeric score')];
  } else if (isObject(data) && Array.isArray(data.scores)) {
    scores = data.scores.map((item, i) => scoreOf(item) ?? fail(`.scores[${i}]`, `not a score: ${preview(item)}`));
  } else {
    return fail('', `unrecognised content ${preview(data)}`);
  }
  if (scores.length === 0) fail('', 'holds no scores');
  return scores;
}

/** a number, a ScoreReport ({score: n}) or a run report ({score: {score: n}}) */
function scoreOf(item: unknown): number | undefined {
  if (typeof item === 'number') return Number.isFinite(item) ? item : undefined;
  if (!isObject(item)) return undefined;
  if (typeof item.score === 'number') return Number.isFinite(item.score) ? item.score : undefined;
  if (isObject(item.score) && typeof item.score.score === 'number' && Number.isFinite(item.score.score))
    return item.score.score;
  return undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function preview(value: unknown): string {
  // JSON.parse reads 1e400 as Infinity, which JSON.stringify would show as "null"
  if (typeof value === 'number' && !Number.isFinite(value))
    return `${value} (not a finite number: a literal such as 1e400 overflows a double)`;
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}
