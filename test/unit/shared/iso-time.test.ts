import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isoAt } from '../../../src/shared/iso-time.js';

describe('isoAt', () => {
  it('is toISOString of the same millisecond, whatever came before it', () => {
    const ms = fc.integer({ min: -8.64e15, max: 8.64e15 });
    fc.assert(
      fc.property(fc.array(ms, { minLength: 1, maxLength: 20 }), (seq) => {
        for (const t of seq) expect(isoAt(t)).toBe(new Date(t).toISOString());
      }),
    );
  });

  it('hands out the same string for the same millisecond twice in a row', () => {
    expect(isoAt(1_800_000_000_123)).toBe('2027-01-15T08:00:00.123Z');
    expect(isoAt(1_800_000_000_123)).toBe('2027-01-15T08:00:00.123Z');
    expect(isoAt(1_800_000_000_124)).toBe('2027-01-15T08:00:00.124Z');
  });
});
