import { describe, expect, it } from 'vitest';
import { formatDuration, parseDuration, tryParseDuration } from '../../../src/shared/duration.js';

describe('parseDuration', () => {
  it.each([
    ['250ms', 250],
    ['2s', 2000],
    ['1m30s', 90_000],
    ['1.5s', 1500],
    ['1h', 3_600_000],
    [1200, 1200],
    ['300', 300],
  ])('%s → %d ms', (input, ms) => {
    expect(parseDuration(input)).toBe(ms);
  });

  it.each([['-1s'], [-5], ['2 s'], ['fast'], [''], [1.5], [null], ['1s2']])('rejects %j', (input) => {
    expect(tryParseDuration(input)).toBeUndefined();
    expect(() => parseDuration(input)).toThrow(/invalid duration/);
  });

  it('formats back to a readable unit', () => {
    expect(formatDuration(250)).toBe('250ms');
    expect(formatDuration(2500)).toBe('2.5s');
    expect(formatDuration(90_000)).toBe('1m30s');
  });
});
