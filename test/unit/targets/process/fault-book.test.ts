import { describe, expect, it } from 'vitest';
import { FaultBook } from '../../../../src/targets/process/fault-book.js';
import { ManualClock } from '../../../../src/shared/clock.js';
import { UsageError } from '../../../../src/shared/errors.js';

describe('FaultBook', () => {
  it('a fault with a duration reverts itself once, when the duration ends', async () => {
    const clock = new ManualClock();
    const book = new FaultBook(clock);
    let reverts = 0;
    const fault = book.add('pause_agent', 'w1', { durationMs: 500 }, () => void reverts++);
    expect(fault.ends_at_ms! - fault.started_at_ms).toBe(500);
    await clock.advance(499);
    expect(reverts).toBe(0);
    expect(book.list()).toHaveLength(1);
    await clock.advance(1);
    expect(reverts).toBe(1);
    expect(book.list()).toEqual([]);
    expect(await book.end(fault.id)).toBe(false);
    expect(reverts).toBe(1);
  });

  it('endAll ends only that kind on that target; forget drops without reverting', async () => {
    const book = new FaultBook(new ManualClock());
    const reverted: string[] = [];
    book.add('pause_agent', 'w1', undefined, () => void reverted.push('p1'));
    book.add('slow_agent', 'w1', undefined, () => void reverted.push('s1'));
    book.add('pause_agent', 'w2', undefined, () => void reverted.push('p2'));
    expect(await book.endAll('pause_agent', 'w1')).toBe(1);
    expect(reverted).toEqual(['p1']);
    book.forget('slow_agent', 'w1');
    expect(book.list().map((f) => `${f.kind}:${f.target}`)).toEqual(['pause_agent:w2']);
    expect(reverted).toEqual(['p1']);
  });

  it('revertAll tries every revert and throws the first failure after', async () => {
    const book = new FaultBook(new ManualClock());
    let second = false;
    book.add('a', 'x', undefined, () => {
      throw new Error('first broke');
    });
    book.add('b', 'x', undefined, () => void (second = true));
    await expect(book.revertAll()).rejects.toThrow('first broke');
    expect(second).toBe(true);
    expect(book.list()).toEqual([]);
  });

  it('refuses a negative, fractional or over-24h duration', () => {
    for (const durationMs of [-1, 1.5, 24 * 3600_000 + 1]) {
      expect(() => FaultBook.checkDuration('pause_agent', { durationMs })).toThrow(UsageError);
    }
    expect(FaultBook.checkDuration('pause_agent', { durationMs: 0 })).toBe(0);
  });
});
