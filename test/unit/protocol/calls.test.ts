import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createCallLedger, type NewCall } from '../../../src/protocol/calls.js';

const call = (i: number): NewCall => ({ kind: 'llm', started_ms: i, ended_ms: i + 1, ok: true, faulted: false });

describe('call ledger', () => {
  it('numbers calls from 1 and reads those after a seq', () => {
    const ledger = createCallLedger();
    for (let i = 0; i < 3; i++) ledger.record(call(i));
    expect(ledger.calls().records.map((r) => r.seq)).toEqual([1, 2, 3]);
    expect(ledger.calls(2)).toEqual({ records: [expect.objectContaining({ seq: 3 })], next: 3, dropped: 0 });
  });

  it('keeps the last `capacity` calls and tells a reader how many it missed', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 20 }), fc.integer({ min: 0, max: 60 }), fc.nat(70), (cap, n, since) => {
        const ledger = createCallLedger(cap);
        for (let i = 0; i < n; i++) ledger.record(call(i));
        const { records, next, dropped } = ledger.calls(since);
        expect(next).toBe(n);
        expect(records.length).toBeLessThanOrEqual(cap);
        // every call after `since` is either read or counted as dropped, never both
        expect(records.length + dropped).toBe(Math.max(0, n - since));
      }),
    );
  });
});
