import { describe, expect, it } from 'vitest';
import { createRandom } from '../../../src/shared/random.js';
import { ManualClock } from '../../../src/shared/clock.js';

describe('createRandom', () => {
  it('replays the same sequence from the same seed', () => {
    const a = createRandom(42);
    const b = createRandom(42);
    const seqA = Array.from({ length: 20 }, () => a.int(0, 1000));
    const seqB = Array.from({ length: 20 }, () => b.int(0, 1000));
    expect(seqA).toEqual(seqB);
    expect(new Set(seqA).size).toBeGreaterThan(10);
  });

  it('differs between seeds and stays in range', () => {
    const a = createRandom(1);
    const b = createRandom(2);
    expect(a.next()).not.toBe(b.next());
    for (let i = 0; i < 1000; i++) {
      const v = a.int(3, 5);
      expect(v).toBeGreaterThanOrEqual(3);
      expect(v).toBeLessThanOrEqual(5);
    }
  });
});

describe('Random.fork', () => {
  const draws = (r: { next(): number }, n = 8) => Array.from({ length: n }, () => r.next());

  it('derives a stream from the seed and the label only, not from draws made before', () => {
    const fresh = createRandom(42).fork('faults');
    const used = createRandom(42);
    draws(used, 100);
    expect(draws(used.fork('faults'))).toEqual(draws(fresh));
  });

  it('adding a fork (and drawing from it) leaves every other stream as it was', () => {
    const before = createRandom(7);
    const runtime = before.fork('runtime');
    const faults = before.fork('faults');
    const expected = { parent: draws(before), runtime: draws(runtime), faults: draws(faults) };

    const after = createRandom(7);
    const runtime2 = after.fork('runtime');
    draws(after.fork('a-new-purpose'), 50);
    const faults2 = after.fork('faults');
    expect({ parent: draws(after), runtime: draws(runtime2), faults: draws(faults2) }).toEqual(expected);
  });

  it('gives different labels and different seeds different streams, forks of forks included', () => {
    const root = createRandom(42);
    const streams = [
      draws(root.fork('a')),
      draws(root.fork('b')),
      draws(createRandom(43).fork('a')),
      draws(root.fork('a').fork('a')),
      draws(root.fork('a').fork('b')),
      draws(createRandom(42)),
    ].map((s) => s.join());
    expect(new Set(streams).size).toBe(streams.length);
  });
});

describe('ManualClock', () => {
  it('fires timers in order only when time advances', async () => {
    const clock = new ManualClock();
    const fired: number[] = [];
    clock.setTimer(200, () => fired.push(200));
    clock.setTimer(100, () => fired.push(100));
    const slept = clock.sleep(150).then(() => fired.push(150));
    await clock.advance(99);
    expect(fired).toEqual([]);
    await clock.advance(101);
    await slept;
    expect(fired).toEqual([100, 150, 200]);
    expect(clock.now()).toBe(200);
  });
});
