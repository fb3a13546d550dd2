import { describe, expect, it } from 'vitest';
import { checkAnswer, isMissing, jsonPathGet } from '../../../../src/targets/process/expect.js';

const ok = (body: unknown, status = 200) => ({ status, body: JSON.stringify(body) });

describe('JSON path and answer expectations', () => {
  it('reads $.a.b[1].c, bare paths and bracketed keys', () => {
    const doc = { a: { b: [{ c: 1 }, { c: 2 }] }, 'odd key': true, leader_id: 'w2' };
    expect(jsonPathGet(doc, '$.a.b[1].c')).toBe(2);
    expect(jsonPathGet(doc, 'leader_id')).toBe('w2');
    expect(jsonPathGet(doc, "$['odd key']")).toBe(true);
    expect(isMissing(jsonPathGet(doc, '$.a.b[5]'))).toBe(true);
    expect(isMissing(jsonPathGet(doc, '$.a.x'))).toBe(true);
    expect(isMissing(jsonPathGet(doc, '$.__proto__'))).toBe(true);
  });

  it('status: 2xx by default, or the listed ones', () => {
    expect(checkAnswer(ok({}, 204), {})).toBeUndefined();
    expect(checkAnswer(ok({}, 503), {})).toBe('status 503, expected 2xx');
    expect(checkAnswer(ok({}, 503), { status: [200, 202] })).toBe('status 503, expected 200 or 202');
  });

  it('equals, in, exists and range each say what they saw', () => {
    expect(checkAnswer(ok({ ok: true }), { json: { path: '$.ok', equals: true } })).toBeUndefined();
    expect(checkAnswer(ok({ ok: false }), { json: { path: '$.ok', equals: true } })).toBe(
      '$.ok is false, expected true',
    );
    expect(checkAnswer(ok({ s: 'b' }), { json: { path: '$.s', in: ['a', 'b'] } })).toBeUndefined();
    expect(checkAnswer(ok({ s: 'c' }), { json: { path: '$.s', in: ['a', 'b'] } })).toBe(
      '$.s is "c", expected one of ["a","b"]',
    );
    expect(checkAnswer(ok({}), { json: { path: '$.id', exists: true } })).toBe('$.id is missing');
    expect(checkAnswer(ok({ id: 1 }), { json: { path: '$.id', exists: false } })).toBe('$.id exists (1)');
    expect(checkAnswer(ok({ n: 5 }), { json: { path: '$.n', range: { min: 0, max: 10 } } })).toBeUndefined();
    expect(checkAnswer(ok({ n: 11 }), { json: { path: '$.n', range: { max: 10 } } })).toBe(
      '$.n is 11, expected a number in [-∞, 10]',
    );
    expect(checkAnswer({ status: 200, body: 'nope' }, { json: { path: '$.n', exists: true } })).toBe(
      'answer is not JSON: "nope"',
    );
  });
});
