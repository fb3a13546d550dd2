/**
 * The JSON paths that target files use in `expect` (and `leader.json`): `$.a.b[0].c`,
 * `a.b`, `$["odd key"]`. Parsed when the file is read, so a malformed path (`$.answer[`)
 * is a validation error with its position rather than a check that never matches.
 */

export type JsonPathSegment = string | number;

export type JsonPathParse = { ok: true; segments: JsonPathSegment[] } | { ok: false; problem: string };

const NAME = /^[A-Za-z_][\w-]*/;

/** `$.a[0]["b c"]` → ['a', 0, 'b c']; a malformed path says where (1-based character) and why */
export function parseJsonPath(path: string): JsonPathParse {
  const text = path.trim();
  const offset = path.indexOf(text) + 1;
  const fail = (at: number, why: string): JsonPathParse => ({
    ok: false,
    problem: `not a JSON path: ${why} at character ${offset + at} of ${JSON.stringify(path)} (e.g. $.answer, $.items[0].id, $["a key"])`,
  });
  if (text === '') return fail(0, 'empty');
  let i = text.startsWith('$') ? 1 : 0;
  const segments: JsonPathSegment[] = [];
  if (i === 0 || NAME.test(text.slice(1))) {
    // the short form starts with a name: `a.b` (and `$a` has long meant `$.a`)
    const m = NAME.exec(text.slice(i));
    if (!m) return fail(0, 'expected "$" or a name');
    segments.push(m[0]);
    i += m[0].length;
  }
  while (i < text.length) {
    const c = text[i]!;
    if (c === '.') {
      const m = NAME.exec(text.slice(i + 1));
      if (!m) return fail(i + 1, 'expected a name after "."');
      segments.push(m[0]);
      i += 1 + m[0].length;
    } else if (c === '[') {
      const rest = text.slice(i + 1);
      const index = /^(\d+)\]/.exec(rest);
      const quoted = /^(["'])([^"']*)\1\]/.exec(rest);
      if (index) {
        segments.push(Number(index[1]));
        i += 1 + index[0].length;
      } else if (quoted) {
        segments.push(quoted[2]!);
        i += 1 + quoted[0].length;
      } else return fail(i, 'expected [index] or ["key"] with its closing "]"');
    } else return fail(i, `unexpected ${JSON.stringify(c)}`);
  }
  return { ok: true, segments };
}

/** the value at the segments, or `missing` */
export function jsonPathValue<M>(value: unknown, segments: readonly JsonPathSegment[], missing: M): unknown {
  let current: unknown = value;
  for (const s of segments) {
    if (typeof s === 'string') {
      if (typeof current !== 'object' || current === null || Array.isArray(current) || !Object.hasOwn(current, s))
        return missing;
      current = (current as Record<string, unknown>)[s];
    } else {
      if (!Array.isArray(current) || s >= current.length) return missing;
      current = current[s];
    }
  }
  return current;
}
