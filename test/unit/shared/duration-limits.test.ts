import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { MAX_DURATION_MS, durationProblem, parseDuration, tryParseDuration } from '../../../src/shared/duration.js';
import { ManualClock, MAX_TIMER_MS, systemClock } from '../../../src/shared/clock.js';

describe('duration limits (DESIGN §3: 0 to 24 h)', () => {
  it.each([
    ['24h', MAX_DURATION_MS],
    [MAX_DURATION_MS, MAX_DURATION_MS],
    ['23h59m59s999ms', MAX_DURATION_MS - 1],
    ['0', 0],
    ['0ms', 0],
    ['1h30m', 5_400_000],
    ['2s500ms', 2500],
  ])('accepts %j', (input, ms) => expect(parseDuration(input)).toBe(ms));

  it.each([['99999h'], ['25h'], ['24h1ms'], [MAX_DURATION_MS + 1], ['86400001'], ['9'.repeat(400)], [1e300]])(
    'refuses %j as longer than 24h',
    (input) => {
      expect(tryParseDuration(input)).toBeUndefined();
      expect(durationProblem(input)).toMatch(/longer than the 24h limit/);
      expect(() => parseDuration(input)).toThrow(/longer than the 24h limit/);
    },
  );

  it.each([['1h1h'], ['30s1m'], ['1s1s'], ['5ms2s']])(
    'refuses %j: repeated or out-of-order units are a typo, not a sum',
    (input) => {
      expect(tryParseDuration(input)).toBeUndefined();
      expect(durationProblem(input)).toMatch(/units must each appear once, largest first/);
    },
  );

  it.each([[Infinity], [-Infinity], [NaN]])('refuses the non-finite %j', (input) => {
    expect(durationProblem(input)).toMatch(/not a finite number/);
  });

  it('every accepted value fits a Node timer, for any input', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.double(),
          fc.integer(),
          fc.string(),
          fc
            .tuple(
              fc.nat({ max: 1e6 }),
              fc.constantFrom('h', 'm', 's', 'ms'),
              fc.nat({ max: 1e6 }),
              fc.constantFrom('h', 'm', 's', 'ms'),
            )
            .map(([a, u, b, v]) => `${a}${u}${b}${v}`),
        ),
        (input) => {
          const ms = tryParseDuration(input);
          if (ms === undefined) expect(durationProblem(input)).toEqual(expect.any(String));
          else {
            expect(Number.isInteger(ms) && ms >= 0 && ms <= MAX_DURATION_MS).toBe(true);
            expect(durationProblem(input)).toBeUndefined();
          }
        },
      ),
      { seed: 11, numRuns: 2000 },
    );
  });
});

describe('timers refuse values Node would misread', () => {
  it('the system clock throws instead of firing an overflowing timer after 1 ms', async () => {
    expect(() => systemClock.setTimer(MAX_TIMER_MS + 1, () => undefined)).toThrow(RangeError);
    expect(() => systemClock.setTimer(Number.NaN, () => undefined)).toThrow(RangeError);
    await expect(systemClock.sleep(Infinity)).rejects.toThrow(/refusing to arm a timer/);
    systemClock.setTimer(MAX_TIMER_MS, () => undefined).cancel();
  });

  it('the manual clock checks the same way', () => {
    const clock = new ManualClock();
    expect(() => clock.setTimer(MAX_TIMER_MS + 1, () => undefined)).toThrow(RangeError);
    expect(clock.pendingTimers()).toBe(0);
  });
});
