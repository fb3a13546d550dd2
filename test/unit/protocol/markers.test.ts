import { describe, expect, it } from 'vitest';
import { createMarkerBook } from '../../../src/protocol/markers.js';

describe('the marker book (DESIGN §13.3)', () => {
  it('counts, per fault and stage, the texts that carry one of its markers', () => {
    const book = createMarkerBook();
    expect(book.isTracking).toBe(false);
    book.add('f1', 'ARENA-CANARY-f1', 'canary', 'mcp');
    book.add('f2', '~00ab12', 'signature', 'mcp');
    book.scan('tool said: ... ARENA-CANARY-f1', 'entered_context');
    book.scan('ARENA-CANARY-f1 twice ARENA-CANARY-f1', 'entered_context');
    book.scan('{"code":"ARENA-CANARY-f1"}', 'drove_action');
    book.scan('Tokyo~00ab12', 'reached_user');
    book.scan('nothing here', 'reached_user');
    expect(book.travel()).toEqual([
      {
        fault_id: 'f1',
        source: 'mcp',
        kind: 'canary',
        markers: 1,
        entered_context: 2,
        drove_action: 1,
        reached_user: 0,
      },
      {
        fault_id: 'f2',
        source: 'mcp',
        kind: 'signature',
        markers: 1,
        entered_context: 0,
        drove_action: 0,
        reached_user: 1,
      },
    ]);
  });

  it('a changed number is found as a whole number only; a short bare one is not traced', () => {
    const book = createMarkerBook();
    book.add('w', '1234.5', 'value', 'llm');
    book.add('w', '"days":4', 'value', 'llm');
    book.add('w', '42', 'value', 'llm');
    expect(book.travel()[0]!.markers).toBe(2);
    for (const miss of ['11234.5', '1234.55', '"days":41', 'the answer is 42']) book.scan(miss, 'entered_context');
    expect(book.travel()[0]!.entered_context).toBe(0);
    for (const hit of ['costs 1234.5.', '-1234.5 left', '{"city":"Paris","days":4}']) book.scan(hit, 'entered_context');
    expect(book.travel()[0]!.entered_context).toBe(3);
  });
});
