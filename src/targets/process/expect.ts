/**
 * Expectations on an HTTP answer: its status, and one test on the value at a
 * JSON path (equals, in, exists, range). Paths are `$.a.b[0].c` or `a.b`.
 * Returns a reason on failure, so a failed check says what it saw.
 */
import { isDeepStrictEqual } from 'node:util';
import type { ExpectSpec } from './spec.js';
import type { OutboundAnswer as HttpAnswer } from '../../shared/http-call.js';
import { jsonPathValue, parseJsonPath } from '../../shared/json-path.js';

const MISSING = Symbol('missing');

/** the value at `path`, or MISSING (target files are checked when read: a malformed path is refused there) */
export function jsonPathGet(value: unknown, path: string): unknown {
  const parsed = parseJsonPath(path);
  return parsed.ok ? jsonPathValue(value, parsed.segments, MISSING) : MISSING;
}

export function isMissing(value: unknown): boolean {
  return value === MISSING;
}

/** undefined when the answer meets the expectation, else why not */
export function checkAnswer(answer: HttpAnswer, expect: ExpectSpec): string | undefined {
  const statuses =
    expect.status === undefined ? undefined : Array.isArray(expect.status) ? expect.status : [expect.status];
  if (statuses ? !statuses.includes(answer.status) : answer.status < 200 || answer.status >= 300) {
    return `status ${answer.status}, expected ${statuses ? statuses.join(' or ') : '2xx'}`;
  }
  const json = expect.json;
  if (!json) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(answer.body);
  } catch {
    return `answer is not JSON: ${JSON.stringify(answer.body.slice(0, 80))}`;
  }
  const found = jsonPathGet(body, json.path);
  const shown = found === MISSING ? 'nothing' : JSON.stringify(found);
  if ('exists' in json && json.exists !== undefined) {
    return (found !== MISSING) === json.exists
      ? undefined
      : `${json.path} ${json.exists ? 'is missing' : `exists (${shown})`}`;
  }
  if ('equals' in json) {
    return found !== MISSING && isDeepStrictEqual(found, json.equals)
      ? undefined
      : `${json.path} is ${shown}, expected ${JSON.stringify(json.equals)}`;
  }
  if (json.in) {
    return found !== MISSING && json.in.some((v) => isDeepStrictEqual(v, found))
      ? undefined
      : `${json.path} is ${shown}, expected one of ${JSON.stringify(json.in)}`;
  }
  if (json.range) {
    const { min, max } = json.range;
    const ok = typeof found === 'number' && (min === undefined || found >= min) && (max === undefined || found <= max);
    return ok ? undefined : `${json.path} is ${shown}, expected a number in [${min ?? '-∞'}, ${max ?? '∞'}]`;
  }
  return undefined;
}
