import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { jsonPathValue, parseJsonPath, type JsonPathSegment } from '../../../src/shared/json-path.js';

const name = fc.stringMatching(/^[A-Za-z_][\w-]{0,8}$/);
const quotedKey = fc.stringMatching(/^[^"'\]]{0,8}$/);
const segment = fc.oneof(
  name.map((n) => ({ text: `.${n}`, value: n as JsonPathSegment })),
  fc.nat(50).map((i) => ({ text: `[${i}]`, value: i as JsonPathSegment })),
  quotedKey.map((k) => ({ text: `["${k}"]`, value: k as JsonPathSegment })),
);

describe('JSON paths', () => {
  it('every well-formed path parses to its segments', () => {
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 6 }), (parts) => {
        const parsed = parseJsonPath(`$${parts.map((p) => p.text).join('')}`);
        expect(parsed).toEqual({ ok: true, segments: parts.map((p) => p.value) });
      }),
    );
  });

  it('a path cut short or with junk after it is refused, never taken as a string', () => {
    fc.assert(
      fc.property(
        fc.array(segment, { minLength: 1, maxLength: 4 }),
        fc.constantFrom('[', '["a', '[1', '.', '[]', '[-1]', ']', ' x', '..a', '[1]]'),
        (parts, junk) => {
          const path = `$${parts.map((p) => p.text).join('')}${junk}`;
          const parsed = parseJsonPath(path);
          expect(parsed.ok).toBe(false);
          if (!parsed.ok) expect(parsed.problem).toMatch(/^not a JSON path: .* at character \d+/);
        },
      ),
    );
  });

  it('names the character where it went wrong', () => {
    expect(parseJsonPath('$.answer[')).toMatchObject({ ok: false, problem: expect.stringContaining('at character 9') });
    expect(parseJsonPath('$.a.')).toMatchObject({ ok: false, problem: expect.stringContaining('at character 5') });
    expect(parseJsonPath('')).toMatchObject({ ok: false });
  });

  it('keeps the short forms: `a.b` and `$a`', () => {
    expect(parseJsonPath('a.b[0]')).toEqual({ ok: true, segments: ['a', 'b', 0] });
    expect(parseJsonPath('$leader_id')).toEqual({ ok: true, segments: ['leader_id'] });
    expect(parseJsonPath('$')).toEqual({ ok: true, segments: [] });
  });

  it('finds the value a parsed path points at, or says it is missing', () => {
    const doc = { a: [{ 'b c': 42 }], n: null };
    const at = (path: string) => {
      const parsed = parseJsonPath(path);
      if (!parsed.ok) throw new Error(parsed.problem);
      return jsonPathValue(doc, parsed.segments, 'MISSING');
    };
    expect(at('$.a[0]["b c"]')).toBe(42);
    expect(at('$.n')).toBeNull();
    expect(at('$.a[1]')).toBe('MISSING');
    expect(at('$.a.length')).toBe('MISSING');
  });
});
